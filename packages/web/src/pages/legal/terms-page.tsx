import { LegalDocument } from './legal-document.tsx';

/** /termsandconditions: Allgemeine Geschäftsbedingungen (German, spec §1, §2). */
export function TermsPage() {
  return <LegalDocument document="terms" />;
}
