// Typed views: given exactly when the input fits the tool's schema, never guessed.
import t from 'tap';
import { commandView, toolView } from '../../lib/claude-code/tool-view.js';

t.test('each known tool gets its view with the fields its input has', async (t) => {
  t.same(toolView('Bash', { command: 'ls', timeout: 5, run_in_background: true }), { kind: 'bash', command: 'ls', timeout: 5, run_in_background: true });
  t.same(toolView('Read', { file_path: '/a' }), { kind: 'read', file_path: '/a' });
  t.same(toolView('Write', { file_path: '/a', content: '' }), { kind: 'write', file_path: '/a', content: '' });
  t.same(toolView('Edit', { file_path: '/a', old_string: 'x', new_string: 'y' }), { kind: 'edit', file_path: '/a', old_string: 'x', new_string: 'y' });
  t.same(toolView('MultiEdit', { file_path: '/a', edits: [{ old_string: 'x', new_string: 'y', replace_all: true }] }), {
    kind: 'multi_edit',
    file_path: '/a',
    edits: [{ old_string: 'x', new_string: 'y', replace_all: true }],
  });
  t.same(toolView('Agent', { prompt: 'p', subagent_type: 'Explore' }), { kind: 'agent', prompt: 'p', subagent_type: 'Explore' });
  t.same(toolView('Task', { prompt: 'p', description: 'd' }), { kind: 'agent', prompt: 'p', description: 'd' });
  t.same(toolView('Skill', { skill: 'haiku' }), { kind: 'skill', skill: 'haiku' });
});

t.test('an input outside the schema, or an unknown tool, gets no view', async (t) => {
  t.equal(toolView('Bash', {}), undefined, 'missing command');
  t.equal(toolView('Bash', { command: ['ls'] }), undefined, 'command not a string');
  t.equal(toolView('Read', { file_path: '/a', limit: '5' }), undefined, 'limit not a number');
  t.equal(toolView('MultiEdit', { file_path: '/a', edits: [{ old_string: 'x' }] }), undefined, 'an edit without new_string');
  t.equal(toolView('Task', { description: 'no prompt' }), undefined, 'agent without prompt');
  t.equal(toolView('Glob', { pattern: '*' }), undefined, 'a tool without a view');
  t.equal(toolView('constructor', {}), undefined, 'an inherited property name is no tool');
});

t.test('a command view carries name, and args and message only when given', async (t) => {
  t.same(commandView('/model'), { kind: 'command', name: '/model' });
  t.same(commandView('/model', 'opus', 'model'), { kind: 'command', name: '/model', args: 'opus', message: 'model' });
});
