// The page's own style and script, inlined so the page needs no network, and
// allowed by hash in its Content-Security-Policy: nothing else on the page can run.
import { createHash } from 'node:crypto';

/** The page's stylesheet: light and dark by the reader's preference, or by the toggle. */
export const STYLE = `
:root{--bg:#fbfbfa;--fg:#1d1f21;--muted:#6b6f76;--card:#fff;--line:#e3e3e0;--user:#2f6fde;--user-bg:#f1f5fe;
--asst:#8a5cd6;--code-bg:#f4f4f2;--add:#e6f4ea;--add-fg:#1a6b32;--del:#fdecec;--del-fg:#a4262c;--hunk:#6b6f76;
--err:#c62828;--err-bg:#fff3f3;--think:#7a6a3a;--shadow:0 1px 2px rgba(0,0,0,.05);color-scheme:light}
:root[data-theme=dark]{--bg:#16181c;--fg:#e4e6ea;--muted:#9aa0a8;--card:#1f2228;--line:#30343b;--user:#7aa7ff;
--user-bg:#1c2433;--asst:#b794f4;--code-bg:#262a31;--add:#17301f;--add-fg:#8fe0a5;--del:#3a1d20;--del-fg:#ff9a9f;
--hunk:#9aa0a8;--err:#ff8a80;--err-bg:#331d1f;--think:#d8c48a;--shadow:none;color-scheme:dark}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#16181c;--fg:#e4e6ea;--muted:#9aa0a8;
--card:#1f2228;--line:#30343b;--user:#7aa7ff;--user-bg:#1c2433;--asst:#b794f4;--code-bg:#262a31;--add:#17301f;
--add-fg:#8fe0a5;--del:#3a1d20;--del-fg:#ff9a9f;--hunk:#9aa0a8;--err:#ff8a80;--err-bg:#331d1f;--think:#d8c48a;
--shadow:none;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.bar{position:sticky;top:0;z-index:2;display:flex;gap:.75rem;align-items:center;padding:.5rem 1rem;
background:var(--bg);border-bottom:1px solid var(--line)}
.bar .name{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;flex:1}
.bar input{width:min(22rem,45vw);padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;
background:var(--card);color:var(--fg);font:inherit}
.bar .count{color:var(--muted);font-size:.85rem;white-space:nowrap}
.bar button{border:1px solid var(--line);background:var(--card);color:var(--fg);border-radius:6px;padding:.3rem .6rem;cursor:pointer;font:inherit}
main{max-width:60rem;margin:0 auto;padding:1rem 1rem 4rem}
.session>header{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin:1rem 0 1.5rem;box-shadow:var(--shadow)}
.session>header h1,.session>header h2{margin:0 0 .5rem;font-size:1.35rem;line-height:1.3;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0;font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
.turn{position:relative;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem;margin:.75rem 0;box-shadow:var(--shadow)}
.turn.user{background:var(--user-bg);border-left:4px solid var(--user)}
.turn.assistant{border-left:4px solid var(--asst)}
.turn.results{border-radius:0;display:flex;flex-wrap:wrap;gap:0 .75rem;align-items:baseline;background:transparent;box-shadow:none;border:none;border-left:4px solid var(--line);padding:.1rem 1rem;margin:.35rem 0;color:var(--muted);font-size:.8rem}
.turn.results>.meta{display:contents}.turn.results p.note{margin:0;font-size:.8rem;order:1}.turn.results a.anchor{order:2}
.turn>.meta{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;font-size:.8rem;color:var(--muted);margin-bottom:.25rem}
.turn>.meta .who{font-weight:600;color:var(--fg);text-transform:capitalize}
.turn.user>.meta .who{color:var(--user)}.turn.assistant>.meta .who{color:var(--asst)}
.turn>.meta a.anchor{color:var(--muted);text-decoration:none;margin-left:auto}
.turn>.meta a.anchor:hover{text-decoration:underline}
.tag{border:1px solid var(--line);border-radius:4px;padding:0 .3rem;font-size:.75rem}
.prose p{margin:.35rem 0;white-space:pre-wrap;overflow-wrap:anywhere}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.prose code{background:var(--code-bg);padding:.05rem .3rem;border-radius:4px}
pre{background:var(--code-bg);padding:.6rem .75rem;border-radius:6px;overflow:auto;max-height:32rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.4rem 0}
details{margin:.4rem 0;border:1px solid var(--line);border-radius:8px;background:var(--card)}
details>summary{cursor:pointer;padding:.35rem .6rem;list-style-position:inside;overflow-wrap:anywhere}
details[open]>summary{border-bottom:1px solid var(--line)}
details>.body{padding:.25rem .6rem .5rem}
details.tool>summary .tool-name{font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
details.tool>summary .digest{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;color:var(--muted);margin-left:.4rem}
details.tool.error>summary{color:var(--err)}
details.tool .label{font-size:.75rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;margin-top:.4rem}
.result.error pre{background:var(--err-bg);color:var(--err)}
details.thinking>summary{color:var(--think);font-style:italic}
details.thinking .prose{color:var(--muted)}
pre.diff{padding:.4rem 0}
pre.diff span{display:block;padding:0 .75rem}
pre.diff .add{background:var(--add);color:var(--add-fg)}pre.diff .del{background:var(--del);color:var(--del-fg)}
pre.diff .hunk{color:var(--hunk)}pre.diff .file{font-weight:600}
img.inline{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px;margin:.4rem 0;display:block}
.note{color:var(--muted);font-size:.85rem;font-style:italic}
.subagent{margin:.5rem 0 .25rem 0;padding-left:.75rem;border-left:3px solid var(--asst)}
.subagent>header{margin:.5rem 0}
.session>footer{color:var(--muted);font-size:.85rem;border-top:1px solid var(--line);margin-top:1.5rem;padding-top:.5rem}
.hidden{display:none}
.compaction{text-align:center;color:var(--muted);font-size:.8rem;margin:1rem 0}
a{color:var(--user)}
.turn{content-visibility:auto;contain-intrinsic-size:auto 8rem}
.turn.context{background:transparent;box-shadow:none;border-style:dashed;border-left:4px solid var(--line);padding:.35rem 1rem}
.turn.context>.meta .who{color:var(--muted)}
details.context{border-style:dashed;font-size:.85rem}
details.context>summary{color:var(--muted)}
details.context>summary::before{content:"context: ";font-style:italic}
pre.pasted,pre.context{max-height:none}
details.more{border:none;background:transparent;margin:0}
details.more>summary{color:var(--muted);font-size:.85rem;padding:.1rem 0}
details.more[open]>summary{border-bottom:none}
.bidi{color:var(--err);font-size:.8em}
.took{color:var(--muted);font-size:.8rem;margin-left:.4rem}
details.tool>summary .purpose{color:var(--muted);font-size:.85rem;margin-left:.5rem;font-style:italic}
ul.todos{list-style:none;padding-left:.25rem;margin:.4rem 0}ul.todos .mark{display:inline-block;width:1.4rem}
ul.todos .completed{color:var(--muted);text-decoration:line-through}ul.todos .in_progress{font-weight:600}
nav.prompts{font-size:.9rem;margin-top:.75rem}nav.prompts ol{margin:.25rem 0;padding-left:1.75rem;max-height:16rem;overflow:auto}
nav.prompts .calls{color:var(--muted);font-size:.8rem;margin-left:.4rem}
.markdown{overflow-wrap:anywhere}
.markdown>:first-child{margin-top:.25rem}.markdown>:last-child{margin-bottom:.25rem}
.markdown p,.markdown ul,.markdown ol,.markdown blockquote,.markdown table{margin:.45rem 0}
.markdown ul,.markdown ol{padding-left:1.5rem}
.markdown h1,.markdown h2,.markdown h3,.markdown h4,.markdown h5,.markdown h6{font-size:1rem;margin:.75rem 0 .35rem}
.markdown h1{font-size:1.2rem}.markdown h2{font-size:1.1rem}
.markdown code{background:var(--code-bg);padding:.05rem .3rem;border-radius:4px}
.markdown pre code{background:none;padding:0}
.markdown blockquote{border-left:3px solid var(--line);margin-left:0;padding-left:.75rem;color:var(--muted)}
.markdown table{border-collapse:collapse;display:block;overflow:auto}
.markdown th,.markdown td{border:1px solid var(--line);padding:.2rem .5rem}
.markdown hr{border:none;border-top:1px solid var(--line)}
`;

/**
 * The page's script: fills the header's end-of-session figures and list of prompts from
 * each session's footer, moves each subagent transcript under the call that dispatched
 * it, filters turns by the search box, opens or closes every fold, and switches the
 * theme. It reads data only as text.
 */
export const SCRIPT = `(function(){
var d=document;
d.querySelectorAll('section.session').forEach(function(s){
  var f=s.querySelector(':scope>footer');if(!f)return;
  f.querySelectorAll('[data-fact]').forEach(function(src){
    var dst=s.querySelector(':scope>header [data-fact="'+src.getAttribute('data-fact')+'"]');
    if(dst)dst.textContent=src.textContent;
  });
});
d.querySelectorAll('section.session>footer>nav.prompts').forEach(function(n){
  n.parentNode.parentNode.querySelector(':scope>header').appendChild(n);
});
d.querySelectorAll('section.subagent[data-parent]').forEach(function(s){
  var call=d.getElementById(s.getAttribute('data-parent'));
  var slot=call&&call.querySelector('.subagent-slot');
  if(slot){slot.appendChild(s);slot.classList.remove('hidden');}
});
var turns=Array.prototype.slice.call(d.querySelectorAll('.turn'));
var q=d.getElementById('q'),count=d.getElementById('count'),timer=0;
function show(n){count.textContent=n===turns.length?turns.length+' turns':n+' of '+turns.length+' turns';}
function filter(){
  var term=q.value.trim().toLowerCase(),n=0;
  turns.forEach(function(t){
    var hit=term===''||t.textContent.toLowerCase().indexOf(term)>=0;
    t.classList.toggle('hidden',!hit);if(hit)n++;
  });
  show(n);
}
if(q){q.disabled=false;q.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(filter,120);});show(turns.length);}
var f=d.getElementById('fold');
if(f){f.disabled=false;f.addEventListener('click',function(){
  var open=f.textContent==='Open all';
  d.querySelectorAll('main details').forEach(function(x){x.open=open;});
  f.textContent=open?'Close all':'Open all';
});}
var b=d.getElementById('theme');
if(b){b.disabled=false;b.addEventListener('click',function(){
  var r=d.documentElement,dark=r.getAttribute('data-theme')?r.getAttribute('data-theme')==='dark':matchMedia('(prefers-color-scheme: dark)').matches;
  r.setAttribute('data-theme',dark?'light':'dark');
});}
})();`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The Content-Security-Policy of every page: no network, no plugins, only the page's own style and script. */
export const CSP = [`default-src 'none'`, `style-src ${sha256(STYLE)}`, `script-src ${sha256(SCRIPT)}`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');
