// The red icon button that removes or deletes a table row's item; the tooltip doubles as its
// accessible name.
import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';

type Props = {
  label: string;
  onClick: () => void;
  testId: string;
  /** A bin unless the item calls for another (e.g. removing a person). */
  icon?: ReactNode;
};

export function RemoveButton({ label, onClick, testId, icon }: Props) {
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        onClick={onClick}
        sx={{ color: 'error.main' }}
        data-testid={testId}
        aria-label={label}
      >
        {icon ?? <DeleteOutlineOutlinedIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}
