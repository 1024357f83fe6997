// Package animationtest checks glTF files for tests. It runs the Khronos
// glTF-Validator, the reference implementation of the glTF 2.0
// specification's rules, under node on a file gloved wrote, when it is
// installed (npm ci --prefix animation/testdata/khronos).
//
// Source: the glTF 2.0 specification and its reference validator
// (KhronosGroup/glTF-Validator, npm package gltf-validator), as package
// animation cites them; the skinned hands it checks are the WebXR generic
// hand's (handmodel/testdata/webxr-generic-hand).
package animationtest
