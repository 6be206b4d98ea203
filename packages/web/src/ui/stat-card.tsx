// A key figure in a small card: a tinted icon tile, the label and the value (dashboard, project
// overview).
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

type Props = {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  /** A CSS colour; the icon takes it and its tile a light tint of it. */
  tone: string;
  /** Smaller, for rows of four cards. */
  dense?: boolean;
  /** On the value. */
  testId?: string;
};

export function StatCard({ label, value, icon, tone, dense = false, testId }: Props) {
  const padding = dense ? 2.25 : 2.5;
  const tile = dense ? 40 : 44;
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: padding, '&:last-child': { pb: padding } }}>
        {/* In a narrow card (two to a phone's row) the text moves below the icon and takes the
            card's width; the label wraps between words ("Files rece…" before, issue 28 item 6). */}
        <Stack
          direction="row"
          useFlexGap
          spacing={dense ? 1.75 : 2}
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Box
            sx={{
              width: tile,
              height: tile,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              color: tone,
              bgcolor: `color-mix(in srgb, ${tone} 12%, transparent)`,
              flexShrink: 0,
            }}
          >
            {icon}
          </Box>
          <Box sx={{ flex: '1 1 110px', minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ hyphens: 'auto' }}>
              {label}
            </Typography>
            <Typography
              variant="h5"
              component="p"
              sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}
              data-testid={testId}
            >
              {value}
            </Typography>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
