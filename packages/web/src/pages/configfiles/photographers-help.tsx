// Issue 28 item 5: what photographers.json holds, with an example, where config files are
// uploaded: {photographer} in a metadata template stays empty for a camera the file does not list.

import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

const example = `{
  "4021234": "Jane Doe",
  "1234": "Max Mustermann"
}`;

export function PhotographersHelp() {
  const { t } = useTranslation('configFiles');
  return (
    <Accordion disableGutters elevation={0} defaultExpanded data-testid="photographers-help">
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="photographers-help-text">
        <Typography sx={{ fontWeight: 600 }}>{t('photographers.title')}</Typography>
      </AccordionSummary>
      <AccordionDetails id="photographers-help-text">
        <Typography variant="body2">{t('photographers.text')}</Typography>
        <Box
          component="pre"
          sx={{
            my: 1,
            p: 1.25,
            fontSize: 13,
            bgcolor: 'action.hover',
            borderRadius: 1,
            overflowX: 'auto',
            maxWidth: '100%',
          }}
        >
          {example}
        </Box>
        <Typography variant="body2">{t('photographers.serial')}</Typography>
      </AccordionDetails>
    </Accordion>
  );
}
