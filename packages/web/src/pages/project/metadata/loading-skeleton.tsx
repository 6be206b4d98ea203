// What the metadata tab shows while its editor's code or data is on the way: the layout of the
// toolbar, the property list and the side column.
import { Grid, Skeleton, Stack } from '@mui/material';

export function LoadingSkeleton() {
  return (
    <Stack spacing={2} data-testid="xmp-loading">
      <Skeleton variant="rounded" height={50} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Stack spacing={1.5}>
            <Skeleton variant="rounded" height={48} />
            {[0, 1, 2, 3].map((index) => (
              <Skeleton key={index} variant="rounded" height={128} />
            ))}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Skeleton variant="rounded" height={220} />
        </Grid>
      </Grid>
    </Stack>
  );
}
