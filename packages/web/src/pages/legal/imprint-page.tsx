import { LegalDocument } from './legal-document.tsx';

/** /imprint: Impressum (German, spec §2). */
export function ImprintPage() {
  return <LegalDocument document="imprint" />;
}
