// The 3-D world: the scene's objects, each hand (its skin, or the WebXR
// hand, or its links' hulls), contact arrows, self-contact points, and a
// camera that orbits them.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { XRHand } from './xrhand.js';

const SKIN = new THREE.Color(0xd9a77f);
const NEAR = new THREE.Color(0xf2d64b);
const TOUCH = new THREE.Color(0xe0553a);
const FLASH = new THREE.Color(0xffffff);
const GHOST = new THREE.Color(0x7fc4ff);
const OBJECT_COLORS = [0x8a9bb0, 0x3f9d8c, 0x6f7fc0, 0x9a6f9a, 0xa0a060];

// Arrow length: 2 cm plus 10 times the depth, at most 10 cm.
export function arrowLength(depth) {
  return Math.min(0.02 + 10 * depth, 0.1);
}

function geometry(mesh) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(mesh.positions, 3));
  g.setIndex(mesh.indices);
  g.computeVertexNormals();
  g.computeBoundingBox();
  return g;
}

// skinMaterial is a skin's, its vertices coloured as the links they ride on.
function skinMaterial() {
  return new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.55 });
}

// skinnedMesh is a hand's skin, its bones riding on the links: bone i's
// matrix is its link's pose times the bone's bind matrix, which the
// skeleton takes as the bone's inverse (three.js skins with bone world ·
// inverse), the bones being the link meshes themselves.
function skinnedMesh(skin, links) {
  const g = new THREE.BufferGeometry();
  const n = skin.positions.length / 3;
  g.setAttribute('position', new THREE.Float32BufferAttribute(skin.positions, 3));
  g.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skin.bones, 4));
  g.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skin.weights, 4));
  g.setAttribute('color', new THREE.Float32BufferAttribute(new Float32Array(3 * n).fill(1), 3));
  g.setIndex(skin.indices);
  g.computeVertexNormals();
  const binds = skin.bone_links.map((_, i) => new THREE.Matrix4().fromArray(skin.bone_binds, 16 * i));
  const mesh = new THREE.SkinnedMesh(g, skinMaterial());
  mesh.name = 'skin';
  mesh.bind(new THREE.Skeleton(skin.bone_links.map((l) => links[l]), binds), new THREE.Matrix4());
  mesh.frustumCulled = false; // its bounds are the bind pose's
  mesh.visible = false; // until its first pose
  return mesh;
}

export class World {
  constructor(canvas) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x1d2024);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.005, 100);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(1, 2, 1.5);
    this.scene.add(sun);
    this.grid = new THREE.GridHelper(2, 20, 0x444a52, 0x30353b);
    this.scene.add(this.grid);
    this.objects = new THREE.Group();
    this.scene.add(this.objects);
    this.handGroups = [];
    this.arrows = [];
    this.dots = [];
    this.hulls = false; // link hulls drawn: over a skin, instead of the WebXR hand
    this.extra = new THREE.Group(); // a loaded glTF
    this.scene.add(this.extra);
    this.resize();
    window.addEventListener('resize', () => this.resize());
  }

  resize() {
    const w = window.innerWidth, h = window.innerHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / Math.max(h, 1);
    this.camera.updateProjectionMatrix();
  }

  // setScene replaces the objects and hands. A hand without a skin is
  // drawn as the WebXR hand once its file is read (its hulls until then,
  // or for good if it cannot be): loaded(hand, info) hears of it, info
  // being the mesh's {url, bones, vertices, triangles} or {url, error}.
  setScene(scene, loaded) {
    this.objects.clear();
    scene.objects.forEach((o, i) => {
      const m = new THREE.Mesh(geometry(o), new THREE.MeshStandardMaterial({
        color: OBJECT_COLORS[i % OBJECT_COLORS.length], roughness: 0.8, flatShading: true,
        transparent: true, opacity: 0.85,
      }));
      m.name = o.name;
      this.objects.add(m);
    });
    for (const g of this.handGroups) this.scene.remove(g.group);
    this.handGroups = scene.hands.map((h) => {
      const group = new THREE.Group();
      group.name = h.name;
      const links = h.links.map((l) => {
        // Over a skin, a link's hull is a wireframe (when hulls are shown).
        const m = new THREE.Mesh(geometry(l), h.ghost
          ? new THREE.MeshStandardMaterial({ color: GHOST.clone(), roughness: 0.6, transparent: true, opacity: 0.3, depthWrite: false })
          : new THREE.MeshStandardMaterial({ color: SKIN.clone(), roughness: 0.6, flatShading: true, wireframe: !!h.skin }));
        if (h.ghost) m.renderOrder = 1;
        m.name = l.name;
        m.matrixAutoUpdate = false;
        m.visible = false; // until its first pose
        m.userData.posed = false;
        group.add(m);
        return m;
      });
      const skin = h.skin ? skinnedMesh(h.skin, links) : null;
      if (skin) group.add(skin);
      this.scene.add(group);
      return { group, links, skin, xr: null, cover: skin, xrJoints: h.xr || [], ghost: !!h.ghost, vertexLinks: h.skin ? h.skin.vertex_links : null, byName: new Map(links.map((m, i) => [h.links[i].name, m])), flashUntil: new Map() };
    });
    const groups = this.handGroups;
    scene.hands.forEach((h, i) => {
      if (h.ghost || h.skin || !h.xr_hand) return;
      const g = groups[i];
      XRHand.load(h, skinMaterial()).then((xr) => {
        if (this.handGroups !== groups) return; // a newer scene came meanwhile
        g.xr = xr;
        g.cover = xr.mesh;
        g.vertexLinks = xr.vertexLinks;
        g.group.add(xr.root);
        if (g.links.some((m) => m.userData.posed)) xr.pose(g.links);
        this.showHand(g);
        loaded(i, xr.info(h.xr_hand));
      }).catch((err) => loaded(i, { url: h.xr_hand, error: String(err && err.message ? err.message : err) }));
    });
    this.proximity = scene.proximity || 0.01;
  }

  // pose places hand's links: px py pz qx qy qz qw per link.
  pose(hand, links) {
    const g = this.handGroups[hand];
    if (!g) return;
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1);
    g.links.forEach((m, i) => {
      const k = 7 * i;
      if (k + 6 >= links.length) return;
      p.set(links[k], links[k + 1], links[k + 2]);
      q.set(links[k + 3], links[k + 4], links[k + 5], links[k + 6]);
      m.matrix.compose(p, q, one);
      m.matrixWorldNeedsUpdate = true;
      m.userData.posed = true;
    });
    if (g.xr) g.xr.pose(g.links);
    this.showHand(g);
  }

  // showHand shows what is drawn of posed hand g: its skin, with its hulls
  // as wireframes over it when hulls are shown; or the WebXR hand, or its
  // hulls instead when they are shown; a hand that has neither, its hulls.
  showHand(g) {
    const posed = g.links.length > 0 && g.links[0].userData.posed;
    for (const m of g.links) m.visible = m.userData.posed && (!g.cover || this.hulls);
    if (g.skin) g.skin.visible = posed;
    if (g.xr) g.xr.mesh.visible = posed && !this.hulls;
  }

  // showHulls shows the link hulls contacts are computed on, or the hands.
  showHulls(on) {
    this.hulls = on;
    for (const g of this.handGroups) this.showHand(g);
  }

  // shown says how hand is drawn: 'skin', 'skin+hulls', 'webxr', 'hulls'.
  shown(hand) {
    const g = this.handGroups[hand];
    if (!g) return null;
    if (g.skin) return this.hulls ? 'skin+hulls' : 'skin';
    return g.xr && !this.hulls ? 'webxr' : 'hulls';
  }

  // skinVertex is vertex v of hand's skin or WebXR hand as drawn, in world
  // space.
  skinVertex(hand, v) {
    const g = this.handGroups[hand];
    if (!g || !g.cover) return null;
    g.group.updateMatrixWorld(true);
    const p = g.cover.getVertexPosition(v, new THREE.Vector3()).applyMatrix4(g.cover.matrixWorld);
    return [p.x, p.y, p.z];
  }

  // xrJoint is hand's OpenXR joint of that name (the scene's xr table)
  // where its link is drawn, in world space.
  xrJoint(hand, name) {
    const g = this.handGroups[hand];
    const j = g && g.xrJoints.find((x) => x.name === name);
    if (!j) return null;
    return new THREE.Vector3(j.offset[0], j.offset[1], j.offset[2]).applyMatrix4(g.links[j.link].matrix).toArray();
  }

  // project is world point p on the page, in CSS pixels from the canvas's
  // top left.
  project(p) {
    const v = new THREE.Vector3(...p).project(this.camera), c = this.renderer.domElement;
    return [(v.x + 1) / 2 * c.clientWidth, (1 - v.y) / 2 * c.clientHeight];
  }

  // tint colours hand's links: touching red, near yellow by distance
  // across the band, flashing white, else skin.
  tint(hand, frame, now) {
    const g = this.handGroups[hand];
    if (!g || g.ghost) return;
    const near = new Map();
    for (const n of frame.near) near.set(n.link, Math.min(near.get(n.link) ?? Infinity, n.distance));
    for (const n of frame.hand_near) near.set(n.link, Math.min(near.get(n.link) ?? Infinity, n.distance));
    const touching = new Set(frame.contacts.map((c) => c.link).concat(frame.hand_contacts.map((c) => c.link)));
    g.links.forEach((m) => {
      const c = m.material.color;
      if ((g.flashUntil.get(m.name) ?? 0) > now) c.copy(FLASH);
      else if (touching.has(m.name)) c.copy(TOUCH);
      else if (near.has(m.name)) c.copy(SKIN).lerp(NEAR, 1 - Math.min(near.get(m.name) / this.proximity, 1));
      else c.copy(SKIN);
    });
    if (g.cover) {
      // Each skin vertex takes the colour of the link it rides on.
      const col = g.cover.geometry.getAttribute('color');
      g.vertexLinks.forEach((l, v) => {
        const c = g.links[l].material.color;
        col.setXYZ(v, c.r, c.g, c.b);
      });
      col.needsUpdate = true;
    }
  }

  flash(hand, link, ms) {
    const g = this.handGroups[hand];
    if (g && g.byName.has(link)) g.flashUntil.set(link, performance.now() + ms);
  }

  flashHand(hand, ms) {
    const g = this.handGroups[hand];
    if (g) for (const m of g.links) g.flashUntil.set(m.name, performance.now() + ms);
  }

  // showContacts draws every hand's contacts as arrows from the contact
  // point along the normal, longer the deeper, and self-contacts as dots.
  // It returns what it drew, by hand, for the page's state.
  showContacts(frames) {
    let a = 0, d = 0;
    const shown = [];
    for (const f of frames) {
      const list = [];
      for (const c of f.contacts.concat(f.hand_contacts.map((h) => ({ link: h.link, object: h.other + ':' + h.other_link, depth: h.depth, point: h.point, normal: h.normal })))) {
        const arrow = this.arrow(a++);
        arrow.position.set(...c.point);
        arrow.setDirection(new THREE.Vector3(...c.normal).normalize());
        const len = arrowLength(c.depth);
        arrow.setLength(len, Math.min(0.4 * len, 0.012), Math.min(0.25 * len, 0.008));
        arrow.visible = true;
        list.push({ link: c.link, object: c.object, depth: c.depth });
      }
      for (const s of f.self) {
        const dot = this.dot(d++);
        dot.position.set(...s.point);
        dot.visible = true;
      }
      shown.push(list);
    }
    for (let i = a; i < this.arrows.length; i++) this.arrows[i].visible = false;
    for (let i = d; i < this.dots.length; i++) this.dots[i].visible = false;
    return shown;
  }

  arrow(i) {
    while (this.arrows.length <= i) {
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 0.02, 0xff3b30);
      arrow.line.material.depthTest = false;
      arrow.cone.material.depthTest = false;
      arrow.renderOrder = 2;
      this.scene.add(arrow);
      this.arrows.push(arrow);
    }
    return this.arrows[i];
  }

  dot(i) {
    while (this.dots.length <= i) {
      const m = new THREE.Mesh(new THREE.SphereGeometry(0.004, 12, 8), new THREE.MeshBasicMaterial({ color: 0xffc533, depthTest: false }));
      m.renderOrder = 2;
      this.scene.add(m);
      this.dots.push(m);
    }
    return this.dots[i];
  }

  // fit points the camera at the hands (with room around them for what
  // they touch), or at the scene while no hand is posed.
  fit() {
    this.scene.updateMatrixWorld(true);
    const box = new THREE.Box3();
    for (const g of this.handGroups) for (const m of g.links) if (m.userData.posed) box.expandByObject(m);
    if (this.extra.children.length) box.expandByObject(this.extra);
    const hands = !box.isEmpty();
    if (!hands) for (const o of this.objects.children) box.expandByObject(o);
    if (box.isEmpty()) box.set(new THREE.Vector3(-0.5, 0, -0.5), new THREE.Vector3(0.5, 1, 0.5));
    const center = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3()).length() / 2;
    const r = hands ? Math.max(1.6 * size, 0.15) : Math.max(size, 0.05);
    const dist = r / Math.sin((this.camera.fov * Math.PI) / 360);
    this.camera.position.copy(center).add(new THREE.Vector3(0.6, 0.45, 1).normalize().multiplyScalar(dist));
    this.camera.near = dist / 100;
    this.camera.far = dist * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    const floor = new THREE.Box3();
    for (const o of this.objects.children) floor.expandByObject(o);
    this.grid.position.y = floor.isEmpty() ? box.min.y : floor.min.y;
  }

  render() {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
