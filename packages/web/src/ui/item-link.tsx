// The name of a listed item (project, FTP server) that opens the item's own page.
import { Link } from '@mui/material';
import type { MouseEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

type Props = {
  to: string;
  children: ReactNode;
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
};

export function ItemLink({ to, children, onClick }: Props) {
  return (
    <Link component={RouterLink} to={to} underline="hover" sx={{ fontWeight: 500 }} onClick={onClick}>
      {children}
    </Link>
  );
}
