// A glTF file (gloved export --gltf) loaded with three.js's GLTFLoader and
// played with its AnimationMixer: what any three.js app would see.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

export function loadGLTF(world, url, state) {
  new GLTFLoader().load(url, (gltf) => {
    const root = gltf.scene;
    world.extra.add(root);
    const mixer = new THREE.AnimationMixer(root);
    let duration = 0;
    for (const clip of gltf.animations) {
      mixer.clipAction(clip).play();
      duration = Math.max(duration, clip.duration);
    }
    let nodes = 0, meshes = 0;
    root.traverse((o) => { nodes++; if (o.isMesh) meshes++; });
    Object.assign(state.gltf, {
      loaded: true,
      nodes,
      meshes,
      animations: gltf.animations.map((c) => ({ name: c.name, duration: c.duration, tracks: c.tracks.length })),
      duration,
    });
    // gltfAt returns node name's world position and rotation at t seconds.
    // The mixer loops, so the end is sampled a nanosecond before it (at
    // the end itself it is back at the start).
    state.gltfAt = (t, name) => {
      mixer.setTime(Math.min(t, duration - 1e-9));
      root.updateMatrixWorld(true);
      const o = root.getObjectByName(name);
      if (!o) return null;
      const p = o.getWorldPosition(new THREE.Vector3()), q = o.getWorldQuaternion(new THREE.Quaternion());
      const s = o.getWorldScale(new THREE.Vector3());
      return { p: p.toArray(), q: q.toArray(), s: s.toArray() };
    };
    world.fit();
    let last = performance.now();
    const step = (now) => {
      if (!state.paused) mixer.update(Math.max(now - last, 0) / 1000);
      last = now;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }, undefined, (err) => {
    state.gltf.error = String(err && err.message ? err.message : err);
  });
}
