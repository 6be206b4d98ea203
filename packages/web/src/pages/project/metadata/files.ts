// Browser file helpers of the metadata tab: saving a text as a download, file name checks.

/** Offers `content` as a file download without a round trip to the server. */
export function saveTextFile(filename: string, content: string, type = 'application/rdf+xml'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const hasExtension = (name: string, extensions: readonly string[]) =>
  extensions.some((extension) => name.toLowerCase().endsWith(extension));
