// Each hand's panel: status, frames per second, dropped samples, overruns,
// the frame-time sparkline against the budget, and events as they happen.

const SPARK = 240; // frame times kept per hand

function statusClass(s) {
  if (s === 'streaming' || s === 'replay') return 'badge ok';
  if (s === 'stalled' || s === 'reconnecting' || s === 'degraded') return 'badge warn';
  return 'badge bad';
}

export class Panel {
  constructor(parent, name) {
    this.el = document.createElement('div');
    this.el.className = 'hand';
    this.el.innerHTML = `<h2><span class="name"></span><span class="status badge">…</span></h2>
      <div class="nums">
        <span>frames/s</span><span class="fps">–</span>
        <span>frame time</span><span class="ms">–</span>
        <span>dropped samples</span><span class="dropped">0</span>
        <span>over budget</span><span class="overruns">0</span>
        <span>contacts</span><span class="contacts">0</span>
      </div>
      <canvas width="254" height="48"></canvas>
      <div class="events"></div>`;
    this.el.querySelector('.name').textContent = name;
    parent.appendChild(this.el);
    this.canvas = this.el.querySelector('canvas');
    this.times = [];
    this.rate = { frames: null, at: 0, value: 0 };
  }

  q(sel) { return this.el.querySelector(sel); }

  // update shows a frame; live frames also feed the rate and sparkline.
  update(f, budget) {
    const st = this.q('.status');
    // A degraded glove says how many samples a second still arrive.
    st.textContent = f.status === 'degraded' && f.rate > 0 ? `degraded: ${f.rate.toFixed(0)} samples/s` : f.status || '–';
    st.className = 'status ' + statusClass(f.status);
    this.q('.dropped').textContent = f.dropped;
    this.q('.overruns').textContent = f.overruns;
    this.q('.contacts').textContent = f.contacts.length + f.hand_contacts.length;
    for (const t of f.ms) this.times.push(t);
    if (this.times.length > SPARK) this.times.splice(0, this.times.length - SPARK);
    const now = performance.now();
    if (this.rate.frames === null || f.frames < this.rate.frames) {
      this.rate = { frames: f.frames, at: now, value: 0 };
    } else if (now - this.rate.at >= 1000) {
      this.rate.value = ((f.frames - this.rate.frames) * 1000) / (now - this.rate.at);
      this.rate.frames = f.frames;
      this.rate.at = now;
    }
    this.q('.fps').textContent = f.live ? this.rate.value.toFixed(1) : '–';
    const last = this.times.length ? this.times[this.times.length - 1] : 0;
    this.q('.ms').textContent = last.toFixed(3) + ' ms';
    this.spark(budget);
  }

  setStatus(s) {
    const st = this.q('.status');
    st.textContent = s;
    st.className = 'status ' + statusClass(s);
  }

  spark(budget) {
    const c = this.canvas, g = c.getContext('2d');
    g.clearRect(0, 0, c.width, c.height);
    const top = Math.max(budget * 1.25, ...this.times, 0.001);
    const y = (v) => c.height - 2 - (v / top) * (c.height - 4);
    g.strokeStyle = '#b5452b';
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(0, y(budget));
    g.lineTo(c.width, y(budget));
    g.stroke();
    g.setLineDash([]);
    g.strokeStyle = '#6fc1ff';
    g.beginPath();
    this.times.forEach((v, i) => {
      const x = (i / (SPARK - 1)) * c.width;
      if (i === 0) g.moveTo(x, y(v));
      else g.lineTo(x, y(v));
    });
    g.stroke();
  }

  // event flashes a touch, pinch, fist or self-contact in the panel.
  event(kind, text, begin) {
    const ev = this.q('.events');
    const s = document.createElement('span');
    s.className = 'flash ' + kind + (begin ? '' : ' end');
    s.textContent = text;
    ev.prepend(s);
    while (ev.childNodes.length > 6) ev.removeChild(ev.lastChild);
  }
}
