// Package gloved is the gloved output profile: gloved's own contract sent
// to a profile's own targets, in the coordinates its table chooses. The
// contract is package osc's: one bundle per frame, <prefix>/<hand>/frame,
// /joints, /links, /contact and the rest, and the hand's /status. The
// coordinates are coords' (gloved, unity, unreal or ros;
// geom.Convention): every position, rotation and normal carried into
// them and every length in their unit (osc.ConvertFrame), as
// osc.MethodsIn describes. Its frames carry the hand's status when due,
// as gloved's own stream does; the status loop sends it in a bundle of
// its own otherwise. It registers itself as "gloved" (package
// osc/profile).
//
// Sources: the OSC 1.0 specification (bundles, NTP timetags) and gloved's
// contract as package osc documents it; the coordinate presets are
// geom's (OpenXR's stage space for gloved's, Unity's, Unreal's and ROS
// REP 103's).
package gloved
