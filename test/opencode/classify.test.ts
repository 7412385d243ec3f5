// The kinds of OpenCode lines: one example per rule of the table, and the kinds of the
// recorded sessions line by line (what each scenario stored, in order).
import t from 'tap';
import { classifyOpencodeLine, kindRule, MESSAGE_RULES } from '../../lib/opencode/classify.js';
import { assistant, recordedExports, recordedLines, sessionInfo, user } from './build.js';

t.test('each rule of the table has a message it classifies, and that message gets the rule\'s kind', (t) => {
  const examples = [
    user([{ type: 'compaction', auto: true }]),
    assistant([{ type: 'text', text: '## Goal' }], { summary: true }),
    user([{ type: 'subtask', prompt: 'p', description: 'd', agent: 'general' }]),
    user([]),
    user([{ type: 'text', text: 'Continue if you have next steps', synthetic: true }]),
    user([{ type: 'text', text: 'Called the Read tool', synthetic: true }, { type: 'text', text: 'What is in it?' }]),
    assistant([{ type: 'text', text: 'Hi' }]),
  ];
  t.equal(examples.length, MESSAGE_RULES.length, 'one example per rule');
  examples.forEach((m, i) => {
    t.equal(kindRule(m), MESSAGE_RULES[i], `example ${i + 1} falls under rule ${i + 1}: ${MESSAGE_RULES[i]!.says}`);
    t.equal(classifyOpencodeLine(m), MESSAGE_RULES[i]!.kind);
  });
  t.equal(classifyOpencodeLine(sessionInfo()), 'meta', 'the session info is meta');
  t.equal(classifyOpencodeLine({ something: 'else' }), 'other', 'anything else is other');
  t.end();
});

t.test('the recorded sessions have the kinds their scenarios made', (t) => {
  const expected: Record<string, string> = {
    plain: 'meta prompt assistant',
    resume: 'meta prompt assistant prompt assistant',
    tools: 'meta prompt assistant assistant assistant assistant',
    compaction: 'meta prompt assistant prompt assistant compact compact injected assistant',
    'compact-command': 'meta prompt assistant compact compact prompt assistant',
    image: 'meta prompt assistant assistant',
  };
  for (const { scenario, file } of recordedExports()) {
    if (!(scenario in expected)) continue;
    t.equal(recordedLines(file).map(classifyOpencodeLine).join(' '), expected[scenario], scenario);
  }
  t.end();
});
