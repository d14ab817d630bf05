/**
 * A team's literal text written into the Terraform JSON (an environment value, a filter pattern): Terraform reads
 * every string there as a template, so a literal `${` would be an "Invalid reference" and a literal `%{` a directive.
 * Doubled, `$${` and `%%{` are Terraform's escapes for them (its template syntax, "Escape sequences"), so the value
 * reaches AWS as written; the local cloud's terraform-json reader undoes them the same way. A cdktf token inside the
 * text (`${TfToken[TOKEN.n]}`, a reference cdktf writes at synth) is left as it is.
 */
export function escapeTerraformTemplate(text: string): string {
  // Replacement functions, not strings: in a replacement string `$$` means one `$`.
  return text.replace(/\$\{(?!TfToken\[)/g, () => "$${").replace(/%\{/g, () => "%%{");
}
