/**
 * Local only: a one-page PDF of plain text lines (Helvetica), what the stand-in serves at an invoice's `invoice_pdf`
 * so that the link works locally. Written by hand: a catalog, a page, its content stream and the cross-reference table
 * of their byte offsets.
 */

/** PDF string literal: ASCII only, with its delimiters escaped. */
const literal = (s: string) =>
  `(${s
    .normalize("NFKD")
    .replace(/×/g, "x")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[\\()]/g, (c) => `\\${c}`)})`;

export function textPdf(lines: string[]): string {
  const shown = lines.slice(0, 45);
  const content = `BT /F1 11 Tf 72 740 Td 15 TL ${shown.map((l) => `${literal(l)} Tj T*`).join(" ")} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // ASCII only, so its characters are its bytes.
  return out;
}
