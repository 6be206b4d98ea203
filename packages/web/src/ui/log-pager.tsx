// The pager under the picture log and under 'Every delivery': page sizes to choose from, numbers
// in the reader's format, and a toolbar that wraps on a phone instead of scrolling sideways.
import { TablePagination } from '@mui/material';
import { formatNumber } from './format.ts';

type Props = {
  count: number;
  pageIndex: number;
  pageSize: number;
  pageSizes: readonly number[];
  onPageIndex: (pageIndex: number) => void;
  /** A new page size starts again on the first page. */
  onPageSize: (pageSize: number) => void;
  language: string;
  rowsPerPageLabel: string;
  /** "1–25 of 480": the numbers come formatted. */
  displayedRows: (numbers: { from: string; to: string; count: string }) => string;
};

export function LogPager(props: Props) {
  const { count, pageIndex, pageSize, language } = props;
  return (
    <TablePagination
      component="div"
      count={count}
      page={Math.min(pageIndex, Math.max(0, Math.ceil(count / pageSize) - 1))}
      onPageChange={(_event, next) => props.onPageIndex(next)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[...props.pageSizes]}
      onRowsPerPageChange={(event) => {
        props.onPageSize(Number(event.target.value));
        props.onPageIndex(0);
      }}
      labelRowsPerPage={props.rowsPerPageLabel}
      labelDisplayedRows={({ from, to }) =>
        props.displayedRows({
          from: formatNumber(from, language),
          to: formatNumber(to, language),
          count: formatNumber(count, language),
        })
      }
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', pl: { xs: 1, sm: 2 } } }}
    />
  );
}
