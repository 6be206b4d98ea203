// The brand colours (ink-blue, amber accent, neutral surfaces), shared by the theme and pages.
export const brand = {
  ink: '#14294a',
  inkDark: '#0c1b33',
  blue: '#1d4ed8',
  amber: '#f59e0b',
  surface: '#f4f6fa',
  border: '#e2e7ef',
};
