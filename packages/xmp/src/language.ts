// XMP language tags (xml:lang of an Alt text's items): one spelling per language.

/** The language of an Alt text's default item. */
export const defaultLang = 'x-default';

/** Canonical case of a language tag (de-ch -> de-CH), so one language is one row; none is x-default. */
export function normalizeLang(lang: string | undefined): string {
  if (!lang || lang.toLowerCase() === defaultLang) return defaultLang;
  return lang
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4) return part[0].toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}
