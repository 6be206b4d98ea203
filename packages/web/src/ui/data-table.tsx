// The table scaffolding the list pages share: placeholder lines while the list loads, the page's
// own empty state when there is nothing to list, otherwise a table with one header row and a row
// per item. What a row shows stays with its page.
import {
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { Fragment, type Key, type ReactNode } from 'react';

/**
 * Below 600 px each row becomes a card: its cells one under the other, each under its column's
 * name, instead of a wide table that hides its right-hand columns behind a sideways scroll
 * (issue 28 item 6). The header row stays for screen readers. Nested tables keep their layout.
 */
function stackedOnPhones(columns: readonly DataTableColumn[]): SxProps<Theme> {
  const row = '& > tbody > tr';
  const cell = `${row} > td`;
  const labels = Object.fromEntries(
    columns.flatMap((column, index) =>
      column.labelHidden || !column.label
        ? []
        : [
            [
              `${cell}:nth-of-type(${index + 1})::before`,
              // '/ ""': the label is drawn, not read twice (the header row names the cell).
              { content: `${JSON.stringify(column.label)} / ""` },
            ],
          ],
    ),
  );
  return (theme) => ({
    [theme.breakpoints.down('sm')]: {
      position: 'relative',
      '& > thead': {
        position: 'absolute',
        top: 0,
        left: 0,
        width: 1,
        height: 1,
        overflow: 'hidden',
        clip: 'rect(0 0 0 0)',
        whiteSpace: 'nowrap',
      },
      '& > tbody, & > tbody > tr, & > tbody > tr > td': { display: 'block' },
      [row]: { py: 1, borderBottom: 1, borderColor: 'divider' },
      [cell]: {
        border: 'none',
        py: 0.5,
        px: 2,
        minWidth: 0,
        maxWidth: 'none',
        textAlign: 'left',
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
      },
      [`${cell}::before`]: {
        display: 'block',
        color: 'text.secondary',
        fontSize: '0.75rem',
        fontWeight: 600,
      },
      ...labels,
      // A detail row spanning all columns is not one column's value.
      [`${cell}[colspan]::before`]: { content: 'none' },
    },
  });
}

export type DataTableColumn = {
  /** Also the column's key: unique within a table ('' for one unnamed column, e.g. an expander). */
  label: string;
  /** An action column names itself to screen readers only; its header cell stays empty. */
  labelHidden?: boolean;
  align?: 'center' | 'right';
  width?: number;
  /** A narrow column for a row's toggle or checkbox. */
  padding?: 'checkbox';
  /** Keeps a long label on one line. */
  noWrap?: boolean;
};

type DataTableProps<Row> = {
  columns: readonly DataTableColumn[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** One `TableRow` (or a component rendering one) per item. */
  renderRow: (row: Row) => ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  loading?: boolean;
  /** How many placeholder lines stand in for the rows while loading. */
  loadingLines?: number;
  size?: 'small' | 'medium';
  ariaLabel?: string;
  testId?: string;
};

export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  renderRow,
  empty,
  loading = false,
  loadingLines = 2,
  size,
  ariaLabel,
  testId,
}: DataTableProps<Row>) {
  if (loading) {
    return (
      <Stack spacing={1.5} sx={{ p: 3 }}>
        {Array.from({ length: loadingLines }, (_, line) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders that never reorder
          <Skeleton key={line} height={32} />
        ))}
      </Stack>
    );
  }
  if (rows.length === 0) return empty;
  return (
    <TableContainer>
      <Table size={size} data-testid={testId} aria-label={ariaLabel} sx={stackedOnPhones(columns)}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.label}
                align={column.align}
                padding={column.padding}
                sx={{ width: column.width, whiteSpace: column.noWrap ? 'nowrap' : undefined }}
                aria-label={column.labelHidden ? column.label : undefined}
              >
                {column.labelHidden ? null : column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <Fragment key={rowKey(row)}>{renderRow(row)}</Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
