// The three legal pages linked from the footer and the avatar menu.
export const legalLinks = [
  { to: '/imprint', labelKey: 'legalLinks.imprint' },
  { to: '/privacy', labelKey: 'legalLinks.privacy' },
  { to: '/termsandconditions', labelKey: 'legalLinks.terms' },
] as const;
