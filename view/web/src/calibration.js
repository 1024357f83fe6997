// The guided calibration (gloved calibrate --view): what to do now, the
// fit once it is done, and the buttons that answer. Answers name the state
// they answer (serial), so a doubled click never answers the next question.

const fmt = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : '–');

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

export class CalibrationPanel {
  // answer(serial, answer, poses) sends an answer to the daemon.
  constructor(root, answer) {
    this.root = root;
    this.answer = answer;
    this.state = null;
    this.again = new Set(); // poses ticked to hold again, kept while the review is redrawn
  }

  show(c) {
    if (c.phase !== 'review') this.again.clear();
    this.state = c;
    this.root.hidden = false;
    this.root.replaceChildren(...this.render(c));
  }

  send(answer, poses) {
    this.answer(this.state.serial, answer, poses || []);
  }

  render(c) {
    const note = c.note ? el('p', { class: 'note' + (c.rejected ? ' bad' : ''), id: 'cal-note' }, c.note) : '';
    switch (c.phase) {
      case 'ask':
      case 'recording':
      case 'held': {
        const again = c.attempt > 1 ? ` (attempt ${c.attempt})` : '';
        const out = [
          el('h2', {}, `Pose ${c.step + 1} of ${c.count}: `, el('span', { id: 'cal-pose' }, c.pose), again),
          el('p', { class: 'do' }, c.do),
          el('p', { class: 'why' }, 'Why: ', c.why, '.'),
        ];
        if (c.phase === 'ask') {
          out.push(note);
          out.push(el('p', {}, `Match the see-through hand, press Ready, then keep still for ${fmt(c.hold_s, 1)} s.`));
          out.push(el('div', { class: 'buttons' },
            el('button', { id: 'cal-ready', class: 'primary', onclick: () => this.send('ready') }, 'Ready'),
            el('button', { id: 'cal-quit', onclick: () => this.send('quit') }, 'Quit')));
        } else if (c.phase === 'recording') {
          out.push(el('p', { class: 'recording', id: 'cal-recording' }, `Recording: keep still for ${fmt(c.hold_s, 1)} s…`));
        } else {
          out.push(note);
        }
        return out;
      }
      case 'review':
        return this.review(c, note);
      default:
        return [el('h2', {}, 'Calibration'), note];
    }
  }

  // tick is pose i's "hold again" box.
  tick(i) {
    const box = el('input', { type: 'checkbox', id: `cal-again-${i}` });
    box.checked = this.again.has(i);
    box.onclick = (e) => {
      e.stopPropagation();
      if (box.checked) this.again.add(i); else this.again.delete(i);
    };
    return box;
  }

  review(c, note) {
    const poses = el('table', { class: 'poses' }, el('tr', {}, el('th', {}, 'again'), el('th', {}, 'pose'), el('th', {}, 'worst joint, fitted − target')));
    c.poses.forEach((p, i) => {
      const row = el('tr', { id: `cal-pose-${i}`, class: i === c.shown ? 'shown' : '', title: 'Show the fitted hand in this pose' },
        el('td', {}, this.tick(i)),
        el('td', {}, `${i + 1}. ${p.name}` + (p.attempts > 1 ? ` (attempt ${p.attempts})` : '')),
        el('td', {}, p.worst_joint ? `${p.worst_joint} ${fmt(p.worst_deg, 1)}°` : '–'));
      row.onclick = () => this.send('show', [i]);
      poses.append(row);
    });
    const sensors = el('table', { class: 'sensors' }, el('tr', {},
      ...['sensor', 'offset', 'gain', 'rms °', 'worst °', 'in', ''].map((h) => el('th', {}, h))));
    for (const s of c.sensors) {
      const flags = [s.reversed ? 'reversed' : '', (s.saturated || []).length ? `at range end in ${s.saturated.join(', ')}` : '',
        s.fallback ? `FALLBACK: ${s.fallback}` : ''].filter(Boolean).join('; ');
      sensors.append(el('tr', { class: s.fallback ? 'fallback' : '' },
        el('td', {}, s.name), el('td', {}, fmt(s.offset, 2)), el('td', {}, fmt(s.gain, 6)),
        el('td', {}, fmt(s.rms_deg, 1)), el('td', {}, fmt(s.worst_deg, 1)), el('td', {}, s.worst_pose || '–'), el('td', {}, flags)));
    }
    const again = () => [...this.again].sort((a, b) => a - b);
    return [
      el('h2', {}, 'The fit'),
      note,
      el('p', {}, `Showing pose ${c.shown + 1}, ${c.poses[c.shown].name}: the fitted hand inside the pose's target. Click a pose to show it.`),
      poses,
      el('div', { class: 'buttons' },
        el('button', { id: 'cal-write', class: 'primary', onclick: () => this.send('write') }, 'Write'),
        el('button', { id: 'cal-redo', onclick: () => { const p = again(); if (p.length) this.send('redo', p); } }, 'Hold ticked poses again'),
        el('button', { id: 'cal-quit', onclick: () => this.send('quit') }, 'Quit')),
      el('details', {}, el('summary', {}, 'Each sensor'), sensors),
    ];
  }
}
