import { createRoot } from 'react-dom/client';
import { App, createAppState } from './app/app.tsx';
import { applyDebugParam } from './ui/debug-mode.ts';
import './i18n/i18n.ts';

applyDebugParam(window.location.search);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(<App state={createAppState()} />);
