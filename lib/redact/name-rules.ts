// tx-redact's own rules for secrets known by the name they are given rather than by
// their shape: `API_KEY=…` in an environment file, `"password": "…"` in JSON text,
// `Authorization: Bearer …`, `?access_token=…` in a URL, `scheme://user:password@host`.
// What stands after such a name is often no secret at all (`${DB_PASSWORD}`, `your-key`,
// `string`), so each rule picks its match through values.ts, and drops what is not.
import type { RuleSource } from './rule.js';
import { isPlaceholder, isReference, isSecretValue } from './values.js';

/** Words before `key` that make a name a credential's (`API_KEY`, `SECRET_KEY`, not `SORT_KEY`). */
const KEY_OWNERS = ['api', 'secret', 'private', 'access', 'app', 'application', 'account', 'auth', 'master', 'signing', 'encryption', 'client'];

/**
 * The end of a name that holds a secret: `…_KEY` only after a word that makes it a
 * credential (`API_KEY`, `SECRET_KEY`, not `SORT_KEY`), `…TOKEN` but not a paging or
 * tokenizer one (`next_token`, `eos_token`), `…PASSWORD`, `…_PASS`, `…_PWD`.
 */
const SECRET_WORD =
  `(?:${KEY_OWNERS.join('|')})[_.-]?key` +
  '|secret' +
  // The look-behinds stand after the word, so they are tried only where it matched.
  '|token(?<!(?:next|page|continuation|cursor|eos|bos|pad|unk|sep|cls|mask|special|max|num)[_.-]?token)' +
  '|passw(?:or)?d' +
  '|(?:pass|pwd)(?<=[_.-](?:pass|pwd))';

/**
 * What follows a name that is given a value, as environment files, YAML, JSON and code
 * write it: a closing quote or none, one space or none, `=` or `:` (`TOKEN=`,
 * `"token":`, `'token' =`). ASSIGNMENT takes exactly these, so a keyword is in every
 * match; a bare `token'` (a string literal in code) is none.
 */
const SEPARATORS = ['', '"', "'", '`'].flatMap((quote) => ['=', ':', ' =', ' :'].map((sep) => quote + sep));

/**
 * Keywords: a `…key` name whole (`api_key`, `apiKey`), the other names' last word with
 * what follows it (`token=`, `password"`). A keyword as common as `key:` would have a
 * line parsed for each `key:` of the code a session reads.
 */
export const NAME_KEYWORDS = [
  ...KEY_OWNERS.flatMap((w) => [`${w}_key`, `${w}.key`, `${w}-key`, `${w}key`]),
  ...['token', 'secret', 'password', 'passwd', 'pass', 'pwd'].flatMap((w) => SEPARATORS.map((s) => w + s)),
];

/** Whether a JSON member's name says its string value is a secret (the `"api_key": "…"` of a parsed line). */
export const SECRET_NAME = new RegExp(`(?:${SECRET_WORD})$|^authorization$`, 'i');

/**
 * NAME SEP VALUE: 1 the name's secret word, 2 the space before the separator, 3 the
 * separator, 4 an opening quote, 5 a quoted value, 6 an unquoted value.
 */
const ASSIGNMENT = `(?i)(${SECRET_WORD})["'\`]?( ?)(=>|:=|=|:)\\s{0,3}(?:(["'\`])((?:(?!\\4)[^\\n\\\\]){1,256})\\4|([^\\s"'\`,;&\\\\\\[\\](){}<>]{1,256}))`;

function pickAssignment(m: RegExpExecArray): number {
  const quoted = m[5] !== undefined;
  const value = quoted ? m[5]! : m[6];
  if (value === undefined) return 0;
  const password = /pass|pwd/i.test(m[1]!);
  const codeLike = !quoted && (m[3] !== '=' || m[2] !== '');
  // `secretKey = decodeBase64(…)`: a call.
  if (!quoted && m.input[m.index + m[0].length] === '(') return 0;
  return isSecretValue(value, { password, quoted, codeLike }) ? (quoted ? 5 : 6) : 0;
}

/** An `Authorization` header's credentials (after its scheme), or a bearer token written anywhere. */
const AUTHORIZATION = `(?i)(?:\\bauthorization["'\`]?\\s{0,3}[:=]\\s{0,3}["'\`]?(?:(?:bearer|basic|bot|token|digest|apikey|sso-key|key)\\s{1,3})?|\\b(bearer)\\s{1,3})([A-Za-z0-9._~+/-]{8}[A-Za-z0-9._~+/-]*={0,2})`;

function pickAuthorization(m: RegExpExecArray): number {
  const value = m[2]!;
  if (isReference(value) || isPlaceholder(value)) return 0;
  const digit = /[0-9]/.test(value);
  // `Bearer` alone is a word of prose too ("bearer authentication"): its token must look like one.
  if (m[1] !== undefined) return digit && value.length >= 16 ? 2 : 0;
  return digit || value.length >= 20 ? 2 : 0;
}

/** Query parameters that carry credentials: OAuth tokens, API keys, SAS and presigned-URL signatures, passwords. */
const QUERY_NAMES = 'access_token|refresh_token|id_token|auth_token|token|api_key|apikey|api-key|key|secret|client_secret|password|passwd|pass|pwd|sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature';
const QUERY = `(?i)[?&;](${QUERY_NAMES})=([^&\\s#"'\`<>\\\\]{8}[^&\\s#"'\`<>\\\\]*)`;

function pickQuery(m: RegExpExecArray): number {
  const value = decodeQueryValue(m[2]!);
  if (isReference(value) || isPlaceholder(value)) return 0;
  return /[0-9]/.test(value) || value.length >= 20 ? 2 : 0;
}

function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * scheme://user:password@host. A user or password may be a `${…}` reference with a
 * colon in it (`${POSTGRES_USER:-postgres}`): read whole, so that the colon inside it is
 * not taken for the one before the password.
 */
const URL_PASSWORD = `\\b[A-Za-z][A-Za-z0-9+.-]{1,30}://((?:\\$\\{[^{}\\s]{1,128}\\}|[^\\s:/?#@"'\`<>\\\\{}]){0,128}):(\\$\\{[^{}\\s]{1,128}\\}|[^\\s/?#@"'\`<>\\\\]{1,256})@[^\\s/?#@"'\`<>\\\\]`;

/** Whether a URL's password is a real one, not a reference or a placeholder (`${DB_PASSWORD}`, `<password>`, `****`). */
export function isUrlPassword(password: string): boolean {
  return !isReference(password) && !isPlaceholder(password);
}

/** Rules for secrets known by their name, after the shape rules. */
export const NAME_RULES: RuleSource[] = [
  { id: 'url-password', regex: URL_PASSWORD, keywords: ['://'], pick: (m) => (isUrlPassword(m[2]!) ? 2 : 0) },
  { id: 'url-query-secret', regex: QUERY, keywords: ['token=', 'key=', 'secret=', 'password=', 'passwd=', 'pass=', 'pwd=', 'sig=', 'signature='], pick: pickQuery },
  { id: 'authorization', regex: AUTHORIZATION, keywords: ['authorization', 'bearer'], pick: pickAuthorization },
  { id: 'secret-assignment', regex: ASSIGNMENT, keywords: NAME_KEYWORDS, pick: pickAssignment },
];
