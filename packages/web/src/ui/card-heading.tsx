// The title strip at the top of a content card: an optional icon, the title (an h2) with a line
// of explanation, and optional things on the right (counts, live badges), above a divider.
import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

type Props = {
  title: string;
  subtitle: string;
  icon?: ReactNode;
  actions?: ReactNode;
};

export function CardHeading({ title, subtitle, icon, actions }: Props) {
  return (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{ px: 2.5, py: 2, alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}
    >
      {icon}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {subtitle}
        </Typography>
      </Box>
      {actions}
    </Stack>
  );
}
