// The WebXR generic hand (view/assets/webxr-generic-hand, MIT), drawn for
// a hand without a skin of its own, as a WebXR app draws a tracked hand:
// three.js's GLTFLoader reads the file, and each frame every bone is put
// on its OpenXR joint, the frame's pose of the joint's link times the
// joint's place on it (the scene's xr table: handmodel.XRJoints, which
// the openxr profile sends the joints by). The mesh stretches to the
// hand model's proportions as it does to a user's. Only the browser
// skins; the daemon sends the link poses it sends anyway.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';

const files = new Map(); // url → the glTF's promise: each file is read once

function load(url) {
  if (!files.has(url)) files.set(url, new GLTFLoader().loadAsync(url));
  return files.get(url);
}

const ONE = new THREE.Vector3(1, 1, 1);

export class XRHand {
  // load makes the WebXR hand of hand h (a scene message's hand): its
  // own copy of the file's scene, with a material of its own whose vertex
  // colours tint it.
  static async load(h, material) {
    const gltf = await load(h.xr_hand);
    return new XRHand(clone(gltf.scene), h.xr, material);
  }

  constructor(root, xr, material) {
    this.root = root;
    root.traverse((o) => { if (o.isSkinnedMesh && !this.mesh) this.mesh = o; });
    if (!this.mesh) throw new Error('the WebXR hand has no skinned mesh');
    const mesh = this.mesh;
    // Clones share their geometry; each hand tints its own.
    mesh.geometry = mesh.geometry.clone();
    const n = mesh.geometry.getAttribute('position').count;
    mesh.geometry.setAttribute('color', new THREE.Float32BufferAttribute(new Float32Array(3 * n).fill(1), 3));
    mesh.material = material;
    mesh.name = 'webxr-hand';
    mesh.frustumCulled = false; // its bounds are the bind pose's
    root.updateMatrixWorld(true);
    const byName = new Map(xr.map((j) => [j.name, j]));
    // Each bone's matrix is set whole: its parent's frame (in the hand's
    // group, where the links are posed) undone, times the joint's pose.
    this.bones = mesh.skeleton.bones.map((bone) => {
      const j = byName.get(bone.name);
      if (!j) throw new Error(`the WebXR hand's bone ${bone.name} is no OpenXR joint`);
      const o = j.offset;
      bone.matrixAutoUpdate = false;
      return {
        bone,
        link: j.link,
        offset: new THREE.Matrix4().compose(new THREE.Vector3(o[0], o[1], o[2]), new THREE.Quaternion(o[3], o[4], o[5], o[6]), ONE),
        parentInverse: bone.parent.matrixWorld.clone().invert(),
      };
    });
    // Each vertex takes the colour of the link its heaviest bone rides on.
    const index = mesh.geometry.getAttribute('skinIndex'), weight = mesh.geometry.getAttribute('skinWeight');
    this.vertexLinks = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      let best = 0;
      for (let k = 1; k < 4; k++) if (weight.getComponent(v, k) > weight.getComponent(v, best)) best = k;
      this.vertexLinks[v] = this.bones[index.getComponent(v, best)].link;
    }
    this.joint = new THREE.Matrix4(); // scratch: posing allocates nothing
  }

  // pose puts every bone on its joint, from the links' matrices.
  pose(links) {
    for (const b of this.bones) {
      this.joint.multiplyMatrices(links[b.link].matrix, b.offset);
      b.bone.matrix.multiplyMatrices(b.parentInverse, this.joint);
      b.bone.matrixWorldNeedsUpdate = true;
    }
  }

  // info is what the page reports of the hand.
  info(url) {
    const g = this.mesh.geometry;
    return { url, bones: this.bones.length, vertices: g.getAttribute('position').count, triangles: g.index.count / 3 };
  }
}
