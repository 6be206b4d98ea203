// Issue 28 item 5: which texts of the template use variables a picture may have no value for
// ({photographer} for a camera photographers.json does not list, {lens} for a picture without
// lens data): named before the first picture goes out as "Photo:  / Agency".
import { Alert, AlertTitle, Box, Stack } from '@mui/material';
import { catalog } from '@photorelay/xmp/catalog';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMetadata } from './metadata-context.tsx';
import { pictureVariables } from './variable-menu.tsx';

const pictureVariableNames = new Set<string>(pictureVariables);
const variableInText = /(?<!\\)\{([A-Za-z][A-Za-z0-9_]*)(?::[^{}]*)?\}/g;

/** Per property that uses them, the picture variables of its texts. */
export function fieldsWithPictureVariables(
  values: ReadonlyArray<{ propertytypeids: string; value: string }>,
) {
  const byProperty = new Map<string, Set<string>>();
  for (const { propertytypeids, value } of values) {
    for (const match of value.matchAll(variableInText)) {
      const name = match[1]?.toLowerCase();
      if (!name || !pictureVariableNames.has(name)) continue;
      const property = propertytypeids.split(',')[0] ?? propertytypeids;
      byProperty.set(property, (byProperty.get(property) ?? new Set()).add(`{${name}}`));
    }
  }
  return [...byProperty].map(([property, names]) => ({ property, variables: [...names] }));
}

export function VariableFieldsNotice() {
  const { t } = useTranslation('metadataTab');
  const { values, language } = useMetadata();
  const fields = useMemo(() => fieldsWithPictureVariables(values.xmpvalues), [values.xmpvalues]);
  if (fields.length === 0) return null;
  const title = (id: string) => {
    const def = catalog.find((candidate) => candidate.id === id);
    return def ? def.title[language] || def.title.en : id;
  };
  return (
    <Alert severity="warning" variant="outlined" data-testid="xmp-variable-fields">
      <AlertTitle>{t('variableFields.title')}</AlertTitle>
      <Stack component="ul" spacing={0.25} sx={{ m: 0, pl: 2 }}>
        {fields.map(({ property, variables }) => (
          <Box component="li" key={property}>
            {t('variableFields.field', { field: title(property), variables: variables.join(', ') })}
          </Box>
        ))}
      </Stack>
      <Box sx={{ mt: 0.5 }}>{t('variableFields.text')}</Box>
    </Alert>
  );
}
