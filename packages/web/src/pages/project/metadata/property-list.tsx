// The metadata tab's property list (spec §2 'Project tabs' Metadata, §5 inputs): five category
// tabs with the count of set properties, the filter over all categories, and the property cards.
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  Card,
  IconButton,
  InputAdornment,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { XmpProperty, XmpValues } from '../../../api/metadata.ts';
import {
  categoryKeys,
  countSet,
  isPropertySet,
  matchesFilter,
  modeOf,
  propertiesOfCategory,
} from './metadata-model.ts';
import { useProgressiveCount } from './progressive.ts';
import { PropertyCard } from './property-card.tsx';

function CategoryLabel({ label, count }: { label: string; count: number }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
      <span>{label}</span>
      {count > 0 && (
        <Box
          component="span"
          sx={{
            minWidth: 20,
            height: 20,
            px: 0.75,
            borderRadius: 10,
            fontSize: 11,
            fontWeight: 700,
            lineHeight: '20px',
            textAlign: 'center',
            bgcolor: 'rgba(31,79,179,0.1)',
            color: 'primary.dark',
          }}
        >
          {count}
        </Box>
      )}
    </Stack>
  );
}

function PropertyCards({
  shown,
  values,
  empty,
}: {
  shown: XmpProperty[];
  values: XmpValues;
  empty: ReactNode;
}) {
  const count = useProgressiveCount(shown.length);
  return (
    <Stack spacing={1.5} sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="xmp-property-list">
      {shown.slice(0, count).map((property) => (
        <PropertyCard key={property.id} property={property} mode={modeOf(values, property.id)} />
      ))}
      {empty}
    </Stack>
  );
}

export function PropertyList({
  properties,
  values,
  hideUnset,
  onShowAll,
}: {
  properties: XmpProperty[];
  values: XmpValues;
  hideUnset: boolean;
  onShowAll: () => void;
}) {
  const { t } = useTranslation('metadataTab');
  const [category, setCategory] = useState(0);
  const [filter, setFilter] = useState('');
  const byCategory = useMemo(
    () => categoryKeys.map((_key, index) => propertiesOfCategory(properties, index)),
    [properties],
  );
  const filtering = filter.trim() !== '';
  // A filter searches every category; without one the tab decides.
  const candidates = filtering ? byCategory.flat() : (byCategory[category] ?? []);
  const shown = candidates.filter(
    (property) => matchesFilter(property, filter) && (!hideUnset || isPropertySet(values, property.id)),
  );

  return (
    <Card>
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={filtering ? false : category}
          onChange={(_event, next: number) => {
            setCategory(next);
            setFilter('');
          }}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t('title')}
          sx={{ px: 1, minHeight: 48 }}
        >
          {categoryKeys.map((key, index) => (
            <Tab
              key={key}
              value={index}
              label={
                <CategoryLabel
                  label={t(`categories.${key}`)}
                  count={countSet(values, byCategory[index] ?? [])}
                />
              }
              sx={{ minHeight: 48, minWidth: 0, px: 1.5, textTransform: 'none', fontWeight: 600 }}
              data-testid={`xmp-category-${index}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box sx={{ px: { xs: 1.5, sm: 2 }, pt: 1.5 }}>
        <TextField
          size="small"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder={t('filter')}
          sx={{ maxWidth: 360 }}
          slotProps={{
            htmlInput: { 'aria-label': t('filter'), 'data-testid': 'xmp-filter' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: filtering ? (
                <InputAdornment position="end">
                  <IconButton
                    size="small"
                    edge="end"
                    aria-label={t('clearFilter')}
                    onClick={() => setFilter('')}
                  >
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      </Box>
      {/* A new category (or the filter) starts again with a screenful of cards. */}
      <PropertyCards
        key={filtering ? 'filter' : category}
        shown={shown}
        values={values}
        empty={
          shown.length === 0 && (
            <Box sx={{ py: 5, textAlign: 'center' }} data-testid="xmp-empty">
              <Typography color="text.secondary">{filtering ? t('noMatch') : t('emptyCategory')}</Typography>
              {hideUnset && (
                <Button sx={{ mt: 1 }} onClick={onShowAll}>
                  {t('showAll')}
                </Button>
              )}
            </Box>
          )
        }
      />
    </Card>
  );
}
