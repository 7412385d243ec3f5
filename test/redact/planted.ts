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
export type Place = 'prompt' | 'bash' | 'tool-result' | 'thinking' | 'file' | 'json-text' | 'json-text-twice' | 'base64';

/** Every place a secret is planted. */
export const PLACES: Place[] = ['prompt', 'bash', 'tool-result', 'thinking', 'file', 'json-text', 'json-text-twice', 'base64'];

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

/** The shapes of each claimed rule's secrets: the rules that may name it, a maker, and the text around it (default `token SECRET `). */
export function secretShapes(random: () => number): Array<{ rules: string[]; make: () => string; context?: (secret: string) => string }> {
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
  ];
}

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

/** Every rule the planted set claims full recall for. */
export function claimedRules(): string[] {
  return [...new Set(secretShapes(prng(1)).flatMap((s) => s.rules))];
}
