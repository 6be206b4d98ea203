// An Alt text (spec §5 'Metadata inputs'): one input per language, the default language first,
// and a button that adds a language by its code.
import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button, Chip, Popover, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLang, useDeleteXmpValue, type XmpFieldDef } from '../../../api/metadata.ts';
import { useAddedLanguages, useMetadata } from './metadata-context.tsx';
import { languagesOf, normalizeLanguage, sortLanguages } from './metadata-model.ts';
import { KeepItem, longTexts, RemoveValueButton, titleOf, ValueInput } from './value-input.tsx';

export function AltInputs({ def, disabled }: { def: XmpFieldDef; disabled: boolean }) {
  const { t } = useTranslation('metadataTab');
  const { values, store, language, teamUuid, projectId } = useMetadata();
  const remove = useDeleteXmpValue(teamUuid, projectId);
  const added = useAddedLanguages(def.id);
  const [focus, setFocus] = useState<string>();
  const stored = languagesOf(values.xmpvalues, def.id);
  const languages = sortLanguages([defaultLang, ...stored, ...added]);
  const title = titleOf(def, language);

  const removeLanguage = (lang: string) => {
    const slot = { ids: def.id, lang };
    store.discard(slot, { propertyId: def.id, lang });
    if (stored.includes(lang)) remove.mutate(slot);
  };

  return (
    <Stack spacing={1}>
      {languages.map((lang) => {
        const isDefault = lang === defaultLang;
        const langLabel = isDefault ? t('languages.default') : lang;
        return (
          <KeepItem key={lang} keep={() => store.addLanguage(def.id, lang)}>
            <ValueInput
              slot={{ ids: def.id, lang }}
              ariaLabel={`${title} (${langLabel})`}
              disabled={disabled}
              multiline={longTexts.has(def.id)}
              autoFocus={focus === lang}
              startAdornment={
                languages.length > 1 ? (
                  <Chip
                    size="small"
                    label={langLabel}
                    variant={isDefault ? 'filled' : 'outlined'}
                    sx={{ width: 64, height: 22, fontSize: '0.7rem', fontWeight: 600 }}
                  />
                ) : undefined
              }
              actions={
                isDefault ? undefined : (
                  <RemoveValueButton
                    label={t('languages.remove', { lang })}
                    onClick={() => removeLanguage(lang)}
                    disabled={disabled}
                  />
                )
              }
            />
          </KeepItem>
        );
      })}
      <Box>
        <AddLanguageButton
          existing={languages}
          disabled={disabled}
          onAdd={(lang) => {
            store.addLanguage(def.id, lang);
            setFocus(lang);
          }}
        />
      </Box>
    </Stack>
  );
}

function AddLanguageButton({
  existing,
  disabled,
  onAdd,
}: {
  existing: readonly string[];
  disabled: boolean;
  onAdd: (lang: string) => void;
}) {
  const { t } = useTranslation('metadataTab');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const normalized = normalizeLanguage(code);
  const error = !normalized
    ? t('languages.invalid')
    : existing.includes(normalized)
      ? t('languages.exists')
      : undefined;
  const close = () => {
    setAnchor(null);
    setCode('');
    setTried(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (error || !normalized) return;
    onAdd(normalized);
    close();
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<TranslateIcon fontSize="small" />}
        onClick={(event) => setAnchor(event.currentTarget)}
        disabled={disabled}
        sx={{ px: 1 }}
      >
        {t('languages.add')}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box
          component="form"
          onSubmit={submit}
          sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'flex-start', width: 320 }}
        >
          <TextField
            size="small"
            autoFocus
            label={t('languages.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={tried && error !== undefined}
            helperText={tried && error ? error : t('languages.codeHelp')}
            slotProps={{ htmlInput: { maxLength: 35, 'data-testid': 'xmp-language-code' } }}
          />
          <Button type="submit" variant="contained" sx={{ mt: 0.25 }}>
            {t('items.add')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
