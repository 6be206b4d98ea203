import { LegalDocument } from './legal-document.tsx';

/** /privacy: Datenschutzerklärung (German, spec §1, §2). */
export function PrivacyPage() {
  return <LegalDocument document="privacy" />;
}
