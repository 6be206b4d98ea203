// What processing did to the test image beyond the file (spec §2 Overview): the name it would be
// delivered under, skipped destinations or a reject, the scripts' log, and the metadata before
// and after side by side.
import {
  Alert,
  Box,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { MetaValue, ProcessingReport as Report } from '@photorelay/contract/scripts';
import { useTranslation } from 'react-i18next';

const slot = (v: MetaValue) =>
  `${v.propertytypeids}${v.lang && v.lang !== 'x-default' ? ` [${v.lang}]` : ''}`;

/** One row per property path and language; list items joined as the metadata tab shows them. */
function sideBySide(before: MetaValue[], after: MetaValue[]) {
  const collect = (values: MetaValue[]) => {
    const map = new Map<string, string[]>();
    for (const v of [...values].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)))
      map.set(slot(v), [...(map.get(slot(v)) ?? []), v.value]);
    return map;
  };
  const was = collect(before);
  const now = collect(after);
  return [...new Set([...was.keys(), ...now.keys()])].sort().map((key) => ({
    key,
    before: (was.get(key) ?? []).join(', '),
    after: (now.get(key) ?? []).join(', '),
  }));
}

export function ProcessingReport({ report }: { report: Report }) {
  const { t } = useTranslation('scriptTab');
  const rows = sideBySide(report.before, report.after);
  return (
    <Box sx={{ mt: 1.5 }} data-testid="processing-report">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('report.title')}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="report-filename">
        {t('report.filename')}: <strong>{report.filename}</strong>
      </Typography>
      {report.rejected !== null ? (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="report-rejected">
          {t('report.rejected', { reason: report.rejected })}
        </Alert>
      ) : (
        <Stack
          direction="row"
          spacing={0.5}
          sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap' }}
          data-testid="report-skipped"
        >
          <Typography variant="body2">{t('report.skipped')}:</Typography>
          {report.skipped.length === 0 && <Typography variant="body2">{t('report.noneSkipped')}</Typography>}
          {report.skipped.map((name) => (
            <Chip key={name} size="small" label={name} />
          ))}
        </Stack>
      )}
      {report.log.length > 0 && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="body2">{t('report.log')}</Typography>
          <Box
            component="pre"
            data-testid="report-log"
            sx={{ m: 0, p: 1, fontSize: 12, bgcolor: '#f6f8fa', borderRadius: 1, whiteSpace: 'pre-wrap' }}
          >
            {report.log.join('\n')}
          </Box>
        </Box>
      )}
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('report.noMetadata')}
        </Typography>
      ) : (
        <Box sx={{ mt: 1, maxHeight: 360, overflow: 'auto' }}>
          <Table size="small" data-testid="report-metadata">
            <TableHead>
              <TableRow>
                <TableCell>{t('report.property')}</TableCell>
                <TableCell>{t('report.before')}</TableCell>
                <TableCell>{t('report.after')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key} selected={row.before !== row.after}>
                  <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>{row.key}</TableCell>
                  <TableCell sx={{ fontSize: 12, overflowWrap: 'anywhere' }}>{row.before}</TableCell>
                  <TableCell sx={{ fontSize: 12, overflowWrap: 'anywhere' }}>{row.after}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
