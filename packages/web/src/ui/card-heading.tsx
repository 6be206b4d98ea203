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
    // On a phone the things on the right move below the title instead of squeezing it into a
    // column a word wide and pushing themselves past the card's edge (issue 28 item 6).
    <Stack
      direction="row"
      useFlexGap
      spacing={1.5}
      sx={{
        px: 2.5,
        py: 2,
        alignItems: 'center',
        flexWrap: 'wrap',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {icon}
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {subtitle}
        </Typography>
      </Box>
      {actions && (
        <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}
