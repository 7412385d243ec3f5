// Whether the value a rule found by its name (`API_KEY=…`, `"password": "…"`,
// `Authorization: …`, `?token=…`, a URL's password) is a secret or something standing in
// for one: a variable or template reference (`$DB_PASSWORD`, `${POSTGRES_PASSWORD:-postgres}`,
// `{{ secrets.TOKEN }}`, `process.env.KEY`), a placeholder (`your-api-key-here`, `xxxx`,
// `changeme`), a type or a number. Rules that find a secret by its shape (a `glpat-`
// prefix) need none of this; rules that find it by its name do, or they would blank
// every template and type annotation a session reads.

/** A value that refers to a secret kept elsewhere: a shell, template or environment reference. */
export function isReference(value: string): boolean {
  // A shell default (`${VAR:-postgres}`) is a reference too: the default is what a
  // template falls back on, not the password of a real service.
  if (/^[$%{<[@&*]/.test(value)) return true;
  if (/\$\{|\$\(|\{\{|%\(|#\{|\{%/.test(value)) return true;
  return /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\(|ENV\[|secrets\.|vars\.)/.test(value);
}

const PLACEHOLDER_WORDS = /your|example|placeholder|change[_-]?me|dummy|sample|x{4}|\*{3}|\.{3}|redacted|replace[_-]?(?:me|with|this)|insert[_-]|todo|fixme|[_-]here(?![a-z])|fake[_-]|not[_-]?set/i;
const PLACEHOLDER_VALUES = new Set(['password', 'passwd', 'pass', 'secret', 'token', 'apikey', 'key', 'string', 'str', 'null', 'none', 'nil', 'undefined', 'true', 'false', 'test', 'testing', 'bearer', 'basic', 'optional', 'required', 'value']);

/** A value that stands in for a secret: a placeholder word, one character repeated, a bare number. */
export function isPlaceholder(value: string): boolean {
  if (PLACEHOLDER_WORDS.test(value)) return true;
  if (PLACEHOLDER_VALUES.has(value.toLowerCase().replace(/[^a-z]/g, ''))) return true;
  if (/^(.)\1*$/.test(value)) return true;
  // Numbers, versions, dates, sizes: `4096`, `1.5`, `2026-01-01`.
  return /^[0-9.,:_+-]*$/.test(value);
}

/** How a value was written beside its name. */
export interface ValueContext {
  /** The name is a password's (`password`, `passwd`, `_pass`, `_pwd`): any word may be one. */
  password: boolean;
  /** The value stood in quotes. */
  quoted: boolean;
  /**
   * Written as code or YAML is (`token: string`, `api_key = get_key()`), not as an
   * environment file is (`API_KEY=…`): an unquoted word there is usually an identifier.
   */
  codeLike: boolean;
}

/** Whether a value found by its name is worth redacting as a secret. */
export function isSecretValue(value: string, ctx: ValueContext): boolean {
  if (value.length < 6 || /\s/.test(value) || isReference(value) || isPlaceholder(value)) return false;
  const digit = /[0-9]/.test(value);
  const letter = /[A-Za-z]/.test(value);
  if (!ctx.quoted) {
    // `settings.SECRET_KEY`, `config.apiKey`: an expression naming where the secret is.
    if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return false;
    if (ctx.codeLike) {
      if (!(digit && letter && value.length >= 8)) return false;
      // An identifier (`Uint8Array`, `decodeBase64`) is code; a random one is long.
      return !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value) || value.length >= 16;
    }
  }
  if (ctx.password) return true;
  // An API key, token or secret has digits, or is long: a word like `development` is neither.
  return value.length >= 8 && (digit || value.length >= 20);
}
