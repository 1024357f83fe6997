// Package view is gloved's live 3D page, what the daemon computes shown in
// a browser. An HTTP server serves a three.js page embedded in the binary
// and streams the scene, then every hand's frames (link poses, contacts,
// near links, self-contact and hand events, frame times and device status)
// over a WebSocket to any number of browsers.
//
// The frame loop only copies its frame into a per-hand slot (Publish: a
// lock and a copy into grown buffers, no allocation, no I/O). Each browser
// pulls: after drawing a frame it asks for the next, and its own goroutine
// sends the newest frame of every hand that changed. A browser therefore
// gets frames at its refresh rate; the frames it never saw are counted as
// skipped, and a slow or stuck browser only delays its own connection,
// never OSC. A connection that cannot take a message within WriteTimeout
// is closed.
//
// A hand is drawn as a hand: its skin, if its config gives it one, or the
// WebXR generic hand (assets/webxr-generic-hand) with its bones on the
// OpenXR joints the scene places on the links (XRJoint); the browser
// skins it from the link poses every frame carries anyway. The links'
// hulls, what contacts are computed on, are a toggle away.
//
// A Timeline holds a whole session computed ahead (a recording or a
// simulation): the page then shows a time slider and asks for the frame at
// a time.
//
// Access: the server listens where [view] listen says (loopback by
// default); a request from any other address is refused unless osc.allow
// lists it, as for the OSC control port (package access, which the
// OSCQuery server shares). WebSocket upgrades must come from
// a page of the same origin (coder/websocket's Origin check).
//
// Sources: the WebSocket protocol, RFC 6455, as coder/websocket (pinned in
// go.mod) implements it; three.js (MIT) for the
// page, bundled from npm by web/build.sh; the WebXR generic hand of
// immersive-web/webxr-input-profiles (MIT, its licence beside it), drawn
// as three.js's XRHandMeshModel draws it; the OSC contract (package osc),
// whose frames the page shows.
package view
