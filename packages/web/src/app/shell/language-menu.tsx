import CheckIcon from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { supportedLanguages } from '../../i18n/i18n.ts';
import { useLanguage } from '../../ui/use-language.ts';

/** Menu entries for choosing the UI language; used inside the avatar menu. */
export function LanguageMenuItems({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('shell');
  const { language, setLanguage } = useLanguage();
  return supportedLanguages.map((lng) => (
    <MenuItem
      key={lng}
      selected={lng === language}
      data-testid={`language-${lng}`}
      onClick={() => {
        setLanguage(lng);
        onDone();
      }}
    >
      <ListItemIcon>{lng === language ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
      <ListItemText>{t(`language.${lng}`)}</ListItemText>
    </MenuItem>
  ));
}

/** Compact language switch for the logged-out top bar. */
export function LanguageButton() {
  const { t } = useTranslation('shell');
  const { language } = useLanguage();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        size="small"
        startIcon={<TranslateIcon fontSize="small" />}
        onClick={(event) => setAnchor(event.currentTarget)}
        // The name starts with the code shown (WCAG 2.5.3: a voice user says what they see).
        aria-label={`${language.toUpperCase()} – ${t('language.choose')}`}
        aria-haspopup="menu"
        data-testid="language-button"
        sx={{
          color: 'text.secondary',
          minWidth: 0,
          px: 1,
          '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } },
        }}
      >
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {language.toUpperCase()}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <LanguageMenuItems onDone={() => setAnchor(null)} />
      </Menu>
    </>
  );
}
