// A seeded generator of Claude Code session lines with secrets planted in them: each
// claimed rule's shapes, in every place a secret travels through a session (a prompt, a
// Bash command, a tool result, thinking, a written file, JSON text inside a string, a
// base64 blob). The recall test and docs/tx-redact.md's recall figure come from it.
import { prng } from '../helpers.js';

/** A secret planted in a line: the rule(s) that may name it, where it was put, its text. */
export interface Planted {
  rules: string[];
  place: Place;
  secret: string;
}

/** Where in a session a secret is planted. */
export type Place = 'prompt' | 'bash' | 'tool-result' | 'thinking' | 'file' | 'json-text' | 'json-text-twice' | 'base64' | 'json-member' | 'json-key';

/** Every place a secret is planted: in text, and in a tool input's JSON (a member named for it; a secret known by its shape as a member name). */
export const PLACES: Place[] = ['prompt', 'bash', 'tool-result', 'thinking', 'file', 'json-text', 'json-text-twice', 'base64', 'json-member', 'json-key'];

/** A secret's shape: the rules that may name it, a maker, the text around it (default `token SECRET `), and the JSON member that holds it. */
export interface Shape {
  rules: string[];
  make: () => string;
  context?: (secret: string) => string;
  /** The member name and value a tool input holds it in (default: `value`, the text); a shape with a context is never a member name. */
  member?: (secret: string) => [string, string];
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

/** The shapes of each claimed rule's secrets. */
export function secretShapes(random: () => number): Shape[] {
  const pick = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };
  const b64url = (text: string) => Buffer.from(text).toString('base64url');
  const pem = (kind: string) => {
    // secretlint's private-key rule wants a body that starts as DER or OpenSSH keys do.
    const body: string[] = ['MIIEowIBAAKCAQEA' + pick(ALNUM + '+/', 48)];
    for (let i = 0; i < 5; i++) body.push(pick(ALNUM + '+/', 64));
    return `-----BEGIN ${kind}PRIVATE KEY-----\n${body.join('\n')}\n-----END ${kind}PRIVATE KEY-----`;
  };
  // A 1Password service-account token is base64 JSON that must end `fQ==` (a '}' alone in its last group).
  const onePassword = () => {
    let json = JSON.stringify({ email: `${pick(LOWER, 12)}@1passwordserviceaccounts.lcl`, muk: { alg: 'A256GCM', k: pick(ALNUM, 43) }, secretKey: pick(ALNUM, 34) }).slice(0, -1);
    while ((json.length + 1) % 3 !== 1) json += ' ';
    return Buffer.from(json + '}').toString('base64');
  };
  return [
    { rules: ['anthropic', 'anthropic-key'], make: () => `sk-ant-api03-${pick(ALNUM + '_-', 93)}AA` },
    { rules: ['anthropic-key'], make: () => `sk-ant-oat01-${pick(ALNUM + '_-', 80)}` },
    { rules: ['openai', 'openai-key'], make: () => `sk-proj-${pick(ALNUM + '_-', 73)}x${'T3BlbkFJ'}${pick(ALNUM + '_-', 73)}x` },
    { rules: ['openai-key'], make: () => `sk-${pick(ALNUM, 48)}` },
    { rules: ['aws'], make: () => `AKIA${pick(UPPER + '234567', 16)}` },
    { rules: ['aws'], make: () => pick(ALNUM, 40), context: (s: string) => `AWS_SECRET_ACCESS_KEY=${s}` },
    { rules: ['github'], make: () => `ghp_${pick(ALNUM, 36)}` },
    { rules: ['github'], make: () => `github_pat_${pick(ALNUM, 22)}_${pick(ALNUM, 59)}` },
    { rules: ['slack'], make: () => `xoxb-${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(ALNUM, 24)}` },
    { rules: ['slack'], make: () => `https://hooks.slack.com/services/T${pick(UPPER + DIGITS, 10)}/B${pick(UPPER + DIGITS, 10)}/${pick(ALNUM, 24)}` },
    { rules: ['sendgrid'], make: () => `SG.${pick(ALNUM, 22)}.${pick(ALNUM, 43)}` },
    { rules: ['shopify'], make: () => `shpat_${pick('0123456789abcdef', 32)}` },
    { rules: ['npm'], make: () => `npm_${pick(LOWER + DIGITS, 36)}` },
    { rules: ['linear'], make: () => `lin_api_${pick(ALNUM, 40)}` },
    { rules: ['1password'], make: () => `ops_${onePassword()}` },
    { rules: ['json-web-token'], make: () => `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub: pick(DIGITS, 10), name: pick(LOWER, 8), iat: 1700000000 }))}.${pick(ALNUM + '_-', 43)}` },
    { rules: ['private-key', 'private-key-block'], make: () => pem('RSA ') },
    { rules: ['private-key', 'private-key-block'], make: () => pem('') },
    { rules: ['url-password', 'database'], make: () => pick(LOWER + DIGITS, 6) + pick(ALNUM, 14), context: (s: string) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/prod` },
    { rules: ['url-password', 'database'], make: () => pick(LOWER + DIGITS, 6) + pick(ALNUM, 14), context: (s: string) => `MONGO_URL=mongodb+srv://app:${s}@cluster0.example.net/prod` },
    { rules: ['url-password', 'basic-auth'], make: () => pick(LOWER + DIGITS, 6) + pick(ALNUM, 14), context: (s: string) => `git remote add origin https://deploy:${s}@git.example.com/app.git` },
    ...newerShapes(pick),
  ];
}

const HEX = '0123456789abcdef';
const password = (pick: (alphabet: string, n: number) => string) => pick(LOWER, 4) + pick(DIGITS, 2) + pick(ALNUM, 8) + '!';

/** Shapes of the secrets found by the rules added for GitLab, Stripe, Hugging Face, Google, PyPI, Twilio, Azure, Telegram, Discord, Datadog, and by name. */
function newerShapes(pick: (alphabet: string, n: number) => string): Shape[] {
  const named = (name: string) => (s: string): [string, string] => [name, s];
  return [
    { rules: ['gitlab'], make: () => `glpat-${pick(ALNUM + '_-', 20)}` },
    { rules: ['gitlab'], make: () => `gldt-${pick(ALNUM + '_-', 20)}` },
    { rules: ['stripe'], make: () => `sk_live_${pick(ALNUM, 99)}` },
    { rules: ['stripe'], make: () => `rk_live_${pick(ALNUM, 24)}` },
    { rules: ['huggingface'], make: () => `hf_${pick(UPPER + LOWER, 34)}` },
    { rules: ['google'], make: () => `AIza${pick(ALNUM + '_-', 35)}` },
    { rules: ['google'], make: () => `ya29.${pick(ALNUM + '_-', 150)}` },
    { rules: ['pypi'], make: () => `pypi-AgEIcHlwaS5vcmc${pick(ALNUM + '_-', 150)}` },
    { rules: ['twilio', 'secret-assignment'], make: () => `SK${pick(HEX, 32)}`, context: (s) => `TWILIO_API_KEY=${s}`, member: named('TWILIO_API_KEY') },
    { rules: ['secret-assignment'], make: () => pick(HEX, 32), context: (s) => `TWILIO_AUTH_TOKEN=${s}`, member: named('TWILIO_AUTH_TOKEN') },
    { rules: ['azure'], make: () => `${pick(ALNUM + '+/', 86)}==`, context: (s) => `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net"` },
    { rules: ['telegram'], make: () => `${pick(DIGITS, 10)}:AA${pick(ALNUM + '_-', 33)}` },
    { rules: ['telegram'], make: () => `${pick(DIGITS, 9)}:AA${pick(ALNUM + '_-', 33)}`, context: (s) => `curl https://api.telegram.org/bot${s}/getUpdates` },
    { rules: ['discord', 'secret-assignment'], make: () => `MT${pick(ALNUM, 24)}.${pick(ALNUM + '_-', 6)}.${pick(ALNUM + '_-', 38)}`, context: (s) => `const client = new Discord.Client(); client.login('${s}');`, member: named('DISCORD_BOT_TOKEN') },
    { rules: ['authorization'], make: () => `MT${pick(ALNUM, 24)}.${pick(ALNUM + '_-', 6)}.${pick(ALNUM + '_-', 38)}`, context: (s) => `curl -H "Authorization: Bot ${s}" https://api.example.com/api/v10/users/@me` },
    { rules: ['datadog', 'secret-assignment'], make: () => pick(HEX, 32), context: (s) => `DD_API_KEY=${s}`, member: named('DD_API_KEY') },
    { rules: ['datadog', 'secret-assignment'], make: () => pick(HEX, 40), context: (s) => `curl -H "DD-APPLICATION-KEY: ${s}" https://api.datadoghq.com/api/v1/validate` },
    { rules: ['secret-assignment'], make: () => pick(ALNUM, 40), context: (s) => `API_KEY=${s}`, member: named('API_KEY') },
    { rules: ['secret-assignment'], make: () => `django-insecure-${pick(LOWER + DIGITS + '!@#%^*-_', 50)}`, context: (s) => `SECRET_KEY=${s}`, member: named('SECRET_KEY') },
    { rules: ['secret-assignment'], make: () => password(pick), context: (s) => `DATABASE_PASSWORD=${s}`, member: named('DATABASE_PASSWORD') },
    { rules: ['secret-assignment'], make: () => password(pick), context: (s) => `{"username": "svc", "password": "${s}"}`, member: named('password') },
    { rules: ['authorization'], make: () => pick(ALNUM + '-._~', 48), context: (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1/items`, member: (s) => ['Authorization', `Bearer ${s}`] },
    { rules: ['authorization'], make: () => Buffer.from(`deploy:${password(pick)}`).toString('base64'), context: (s) => `Authorization: Basic ${s}`, member: (s) => ['Authorization', `Basic ${s}`] },
    { rules: ['url-password'], make: () => password(pick), context: (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0` },
    { rules: ['url-query-secret'], make: () => pick(ALNUM + '-_', 40), context: (s) => `curl "https://api.example.com/v2/export?format=csv&access_token=${s}&page=2"` },
    { rules: ['url-query-secret'], make: () => encodeURIComponent(Buffer.from(pick(ALNUM, 32)).toString('base64')), context: (s) => `https://acme.blob.core.windows.net/backups/db.sql?sv=2022-11-02&se=2026-01-01&sr=b&sp=r&sig=${s}` },
  ];
}

/** Texts that look like secrets and are none: references, shell defaults, placeholders, example keys, hashes, UUIDs, code. */
export const NOT_SECRETS: string[] = [
  'DATABASE_URL=postgresql://${POSTGRES_USER:-postgres}:${POSTGRES_PASSWORD:-postgres}@db:5432/app',
  '      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}',
  'url = "postgres://$PGUSER:$PGPASSWORD@localhost/app"',
  'API_KEY=your-api-key-here',
  'OPENAI_API_KEY=<your key>',
  'SECRET_KEY=changeme',
  'DB_PASSWORD=********',
  'token: ${{ secrets.GITHUB_TOKEN }}',
  'api_key = os.environ["API_KEY"]',
  'const apiKey = process.env.OPENAI_API_KEY;',
  'def login(password: str, token: Optional[str] = None) -> bool:',
  'export function decrypt(data: Uint8Array, secret: Uint8Array): Uint8Array {',
  'this.secretKey = decodeBase64(secretKeyBase64);',
  'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items',
  'headers: { Authorization: `Bearer ${token}` }',
  'Use bearer authentication for every endpoint.',
  'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'PRIVATE-TOKEN: glpat-xxxxxxxxxxxxxxxxxxxx',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  'git clone https://user:pass@example.com/repo.git',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'image: postgres@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="',
  '"password_hash": "$2b$12$KIXQJQh3b8x9tq0n5m1Q2eW4y6u8i0o2a4s6d8f0g2h4j6k8l0z2x"',
  '"sessionId": "3f0c9b1e-8c4a-4d2e-9f7a-1b2c3d4e5f60", "request_id": "7d9f1e2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a"',
  'MAX_TOKENS=4096 and "input_tokens": 1234',
  'next_page_token=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0c2pmYjc2EAE',
  '?page=2&sort=desc&key=name',
  'pip install huggingface_hub && python -c "from huggingface_hub import hf_hub_download"',
];

/** Native Claude Code lines with `count` planted secrets of every shape in every place. */
export function plantedSession(seed: number, rounds = 3): { lines: string[]; planted: Planted[] } {
  const random = prng(seed);
  const shapes = secretShapes(random);
  const lines: string[] = [];
  const planted: Planted[] = [];
  let uuid = 0;
  const base = () => ({ uuid: `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`, sessionId: '11111111-2222-4333-8444-555555555555', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/tmp/project', version: '2.1.100' });
  for (let round = 0; round < rounds; round++) {
    for (const shape of shapes) {
      for (const place of PLACES) {
        // A secret known by its name or surroundings is not a member name alone.
        if (place === 'json-key' && shape.context) continue;
        const secret = shape.make();
        const text = shape.context ? shape.context(secret) : `token ${secret} `;
        planted.push({ rules: shape.rules, place, secret });
        let line: unknown;
        switch (place) {
          case 'prompt':
            line = { type: 'user', message: { role: 'user', content: `please deploy with ${text}\nthanks` }, ...base() };
            break;
          case 'bash':
            line = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${uuid}`, name: 'Bash', input: { command: `export SECRET_VALUE="${text.trim()}" && ./deploy.sh`, description: 'Deploy' } }] }, ...base() };
            break;
          case 'tool-result':
            line = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: `$ cat .env\n${text}\nDONE` }] }, ...base() };
            break;
          case 'thinking':
            line = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'thinking', thinking: `The user pasted ${text} so I should not echo it.`, signature: 'c2lnbmF0dXJl' }] }, ...base() };
            break;
          case 'file':
            line = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${uuid}`, name: 'Write', input: { file_path: '/tmp/project/config.yaml', content: `service:\n  name: api\n  credential: |\n    ${text}\n` } }] }, ...base() };
            break;
          case 'json-text':
            line = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: JSON.stringify({ ok: true, env: { VALUE: text } }, null, 2) }] }, ...base() };
            break;
          case 'json-text-twice':
            line = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: JSON.stringify({ result: JSON.stringify({ env: { VALUE: text } }) }) }] }, ...base() };
            break;
          case 'json-member': {
            const [name, value] = shape.member ? shape.member(secret) : ['value', text];
            line = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${uuid}`, name: 'mcp__deploy__run', input: { service: 'api', env: { [name]: value, MODE: 'prod' } } }] }, ...base() };
            break;
          }
          case 'json-key':
            // A map keyed by credential, as a tool's JSON input or a cache file holds one.
            line = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${uuid}`, name: 'mcp__deploy__grant', input: { grants: { [shape.context ? text : secret]: { role: 'admin' }, other: { role: 'read' } } } }] }, ...base() };
            break;
          case 'base64':
            line = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: `kubectl get secret app -o yaml\ndata:\n  env: ${Buffer.from(`VALUE=${text}\nMODE=prod\n`).toString('base64')}\n` }] }, ...base() };
            break;
        }
        lines.push(JSON.stringify(line));
      }
    }
  }
  return { lines, planted };
}

/** JSON members whose values look like secrets by their names and are none. */
export const NOT_SECRET_MEMBERS: Array<[string, string]> = [
  ['API_KEY', 'your-api-key-here'],
  ['password', '${DB_PASSWORD}'],
  ['POSTGRES_PASSWORD', '${POSTGRES_PASSWORD:-postgres}'],
  ['token', 'string'],
  ['access_token', '{{ vault.token }}'],
  ['Authorization', 'Bearer $TOKEN'],
  ['sessionId', '3f0c9b1e-8c4a-4d2e-9f7a-1b2c3d4e5f60'],
  ['max_tokens', '4096'],
  ['DATABASE_URL', 'postgresql://${POSTGRES_USER:-postgres}:${POSTGRES_PASSWORD:-postgres}@db:5432/app'],
];

/** Claude Code lines holding each of NOT_SECRETS in every text place, and each of NOT_SECRET_MEMBERS as a tool input's member. */
export function notSecretSession(): string[] {
  const lines: string[] = [];
  const base = { sessionId: '11111111-2222-4333-8444-555555555555', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/tmp/project', version: '2.1.100' };
  for (const text of NOT_SECRETS) {
    const contents = [
      text,
      `$ cat docker-compose.yml\n${text}\n`,
      JSON.stringify({ ok: true, env: { VALUE: text } }, null, 2),
      JSON.stringify({ result: JSON.stringify({ env: { VALUE: text } }) }),
      `kubectl get configmap app -o yaml\ndata:\n  env: ${Buffer.from(`VALUE=${text}\nMODE=prod\n`).toString('base64')}\n`,
    ];
    for (const content of contents) lines.push(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] }, ...base }));
    lines.push(JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: text, description: 'Run' } }] }, ...base }));
  }
  for (const [name, value] of NOT_SECRET_MEMBERS) {
    lines.push(JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'mcp__deploy__run', input: { env: { [name]: value } } }] }, ...base }));
  }
  return lines;
}

/**
 * The output as a reader could read it: the text, then every base64 run in it decoded (a
 * secret planted in base64 is never in the text as it is, found or not).
 */
export function readable(output: string): string {
  const decoded = (output.match(/[A-Za-z0-9+/]{40,}={0,2}/g) ?? []).map((run) => Buffer.from(run, 'base64').toString('utf8'));
  return [output, ...decoded].join('\n');
}

/** Every rule the planted set claims full recall for. */
export function claimedRules(): string[] {
  return [...new Set(secretShapes(prng(1)).flatMap((s) => s.rules))];
}
