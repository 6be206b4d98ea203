// A calm, professional look for a press-photo product: ink-blue brand, warm amber accent
// (the flash), neutral surfaces that let pictures and data stand out.
import { alpha, createTheme } from '@mui/material/styles';
import { brand } from '../ui/brand.ts';

const fontFamily = [
  'Inter',
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#1f4fb3', dark: '#173c8a', light: '#4a74cf', contrastText: '#fff' },
    secondary: { main: brand.amber, contrastText: '#1a1a1a' },
    background: { default: brand.surface, paper: '#ffffff' },
    // Disabled text at 4.6:1 or more on white and on the page surface: the helper text of a
    // disabled field is still read (MUI's default, 38 % black, is 2.3:1; WCAG 1.4.3 wants 4.5:1).
    text: { primary: '#172033', secondary: '#5b6577', disabled: '#687083' },
    divider: brand.border,
    // White on MUI's default info blue is 4.0:1; this one is 5.9:1 (filled "Scheduled" chips).
    info: { main: '#0369a1' },
    success: { main: '#15803d' },
    warning: { main: '#b45309' },
    error: { main: '#c62828' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily,
    h1: { fontWeight: 700, fontSize: '2.75rem', lineHeight: 1.15, letterSpacing: '-0.02em' },
    h2: { fontWeight: 700, fontSize: '2rem', lineHeight: 1.2, letterSpacing: '-0.01em' },
    h3: { fontWeight: 700, fontSize: '1.6rem', lineHeight: 1.25 },
    h4: { fontWeight: 650, fontSize: '1.5rem', lineHeight: 1.3, letterSpacing: '-0.01em' },
    h5: { fontWeight: 600, fontSize: '1.2rem', lineHeight: 1.35 },
    h6: { fontWeight: 600, fontSize: '1.05rem', lineHeight: 1.4 },
    subtitle1: { fontWeight: 500 },
    subtitle2: { fontWeight: 600, fontSize: '0.8125rem' },
    overline: { fontWeight: 700, letterSpacing: '0.1em', lineHeight: 1.6 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        body: { WebkitFontSmoothing: 'antialiased', MozOsxFontSmoothing: 'grayscale' },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { borderRadius: 8, paddingInline: 16 }, sizeLarge: { paddingBlock: 10 } },
    },
    MuiPaper: {
      styleOverrides: { outlined: { borderColor: brand.border } },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { borderRadius: 12 } },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
      styleOverrides: {
        root: { backgroundColor: '#fff', borderBottom: `1px solid ${brand.border}` },
      },
    },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiTableCell: {
      styleOverrides: {
        head: {
          fontWeight: 600,
          color: '#5b6577',
          fontSize: '0.75rem',
          textTransform: 'uppercase',
          letterSpacing: '0.04em',
          backgroundColor: '#f8fafc',
        },
      },
    },
    MuiChip: {
      styleOverrides: {
        root: {
          variants: [
            // Amber text on white is 2.2:1; outlined amber chips write in dark amber (7:1).
            { props: { variant: 'outlined', color: 'secondary' }, style: { color: '#92400e' } },
          ],
        },
      },
    },
    MuiAlert: { styleOverrides: { root: { borderRadius: 8 } } },
    MuiTooltip: { defaultProps: { arrow: true } },
    MuiListItemButton: {
      styleOverrides: {
        root: ({ theme: t }) => ({
          borderRadius: 6,
          '&.Mui-selected': {
            backgroundColor: alpha(t.palette.primary.main, 0.1),
            color: t.palette.primary.dark,
          },
        }),
      },
    },
  },
});
