// tx-redact's own rules for secrets known by their shape: a prefix their issuer puts on
// them, a length, a structure. secretlint's preset (secretlint.ts) covers AWS, GitHub,
// Slack, npm, SendGrid, Shopify, Linear, 1Password, OpenAI, Anthropic, private keys and
// database URLs, and no package on npm keeps a rule list for the rest (see
// docs/tx-redact.md): these are ours, written from each issuer's published token
// format. A run is written `C{20}C*`, not `C{20,}`: V8 backtracks `{20,}` through a
// stack of a few bytes a character (55 MB for a 2 MB run, kept), and `C*` without one.
// Every rule has keywords, so a line holding none of them is never parsed; rules
// with a fixed prefix drop low-entropy matches (`glpat-xxxxxxxxxxxxxxxxxxxx` in docs).
import type { RuleSource } from './rule.js';

/** A random token of this length has an entropy far above this; a placeholder's is below it. */
const TOKEN_ENTROPY = 3;

/** Rules for secrets known by their shape, in the order they name a secret two of them find. */
export const SHAPE_RULES: RuleSource[] = [
  // secretlint's anthropic and openai rules want the exact length of one key generation.
  { id: 'anthropic-key', regex: '\\bsk-ant-(?:api|admin|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*', keywords: ['sk-ant-'], entropy: TOKEN_ENTROPY },
  { id: 'openai-key', regex: '\\bsk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|\\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|\\bsk-[A-Za-z0-9]{48}\\b', keywords: ['sk-'], entropy: TOKEN_ENTROPY },
  // secretlint has no JWT rule. The example token of jwt.io's debugger is no one's secret.
  { id: 'json-web-token', regex: '\\beyJ[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*\\.(?!SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c)[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*', keywords: ['eyj'] },
  // secretlint's private-key rule wants the END line; a truncated key is still a key.
  {
    id: 'private-key-block',
    regex: '-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)',
    keywords: ['-----begin'],
  },
  // GitLab: personal, deploy, runner, trigger, CI job, incoming mail, feed, service-account and OAuth tokens; runner registration.
  {
    id: 'gitlab',
    regex: '\\bgl(?:pat|dt|rt|ptt|cbt|imt|ft|soat|oas|agent|ffct)-[0-9A-Za-z_-]{20}(?:[0-9A-Za-z_.-]*[0-9A-Za-z_-])?|\\bGR1348941[0-9A-Za-z_-]{20}[0-9A-Za-z_-]*',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glimt-', 'glft-', 'glsoat-', 'gloas-', 'glagent-', 'glffct-', 'gr1348941'],
    entropy: TOKEN_ENTROPY,
  },
  // Stripe: live secret and restricted keys, webhook signing secrets (test-mode keys reach no money and are not taken).
  { id: 'stripe', regex: '\\b(?:sk|rk)_live_[0-9A-Za-z]{20}[0-9A-Za-z]*|\\bwhsec_[0-9A-Za-z]{32}[0-9A-Za-z]*', keywords: ['sk_live_', 'rk_live_', 'whsec_'], entropy: TOKEN_ENTROPY },
  // Hugging Face: user access tokens and organisation API tokens, 34 letters and digits.
  { id: 'huggingface', regex: '\\b(?:hf|api_org)_[A-Za-z0-9]{34}(?![A-Za-z0-9_-])', keywords: ['hf_', 'api_org_'], entropy: TOKEN_ENTROPY },
  // Google: API keys (39 characters), OAuth access tokens, OAuth client secrets.
  {
    id: 'google',
    regex: '\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])|\\bya29\\.[0-9A-Za-z_-]{20}[0-9A-Za-z_-]*|\\bGOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])',
    keywords: ['aiza', 'ya29.', 'gocspx-'],
    entropy: TOKEN_ENTROPY,
  },
  // PyPI: API tokens are macaroons, `pypi-AgE` then base64url.
  { id: 'pypi', regex: '\\bpypi-AgE[0-9A-Za-z_-]{50}[0-9A-Za-z_-]*', keywords: ['pypi-age'] },
  // Twilio: an API key's SID is `SK` and 32 hex digits; auth tokens have no shape (name-rules.ts finds them by name).
  { id: 'twilio', regex: '\\bSK[0-9a-fA-F]{32}(?![0-9A-Za-z])', keywords: ['twilio'], entropy: TOKEN_ENTROPY },
  // Azure: storage account and Service Bus / Event Hubs keys in connection strings (SAS signatures: name-rules.ts, as URL queries).
  { id: 'azure', regex: '(?i)\\b(?:AccountKey|SharedAccessKey) ?= ?([A-Za-z0-9+/]{20}[A-Za-z0-9+/]*={0,2})', keywords: ['key=', 'key ='] },
  // Telegram: a bot's id, a colon, and 35 characters starting `AA` (the bot id may follow `/bot` in an API URL).
  { id: 'telegram', regex: '(?<![0-9])[0-9]{5,16}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])', keywords: [':aa'], entropy: TOKEN_ENTROPY },
  // Discord: a bot token is three base64url parts (the bot's id, a time, an HMAC) with no
  // prefix: only looked for where `discord` is named, as a line without any keyword is not
  // parsed. Sent as `Authorization: Bot …` it is found by name-rules.ts in any line.
  {
    id: 'discord',
    regex: '(?<![0-9A-Za-z_-])[MNO][0-9A-Za-z_-]{23,25}\\.[0-9A-Za-z_-]{6}\\.[0-9A-Za-z_-]{27,38}(?![0-9A-Za-z_-])',
    keywords: ['discord'],
    entropy: TOKEN_ENTROPY,
  },
  // Datadog: API keys (32 hex) and application keys (40 hex) have no prefix, only their names.
  {
    id: 'datadog',
    regex: '(?i)\\b(?:dd|datadog)[_-](?:api|app|application)[_-]?key["\'`]?\\s{0,3}[:=]\\s{0,3}["\'`]?([0-9a-f]{40}|[0-9a-f]{32})(?![0-9a-z])',
    keywords: ['dd_api', 'dd_app', 'dd-api', 'dd-app', 'datadog_api', 'datadog_app', 'datadog-api', 'datadog-app'],
  },
];
