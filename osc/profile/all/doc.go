// Package all registers the output profiles gloved ships, for its
// importer, which imports it for that alone. They are gloved's own
// contract in other coordinates (osc/gloved), the OpenXR hand joints
// (osc/openxr), VRChat's avatar parameters (osc/vrchat) and the VMC
// protocol's finger bones (osc/vmc). The daemon imports it and names no
// profile; a new one is its package and one line here.
//
// Source: tailscale's feature/condregister package
// (github.com/tailscale/tailscale), which imports the features a build
// includes so that each registers itself and the core names none.
package all
