// Package vrchat is gloved's vrchat output profile: a hand's frames as
// VRChat avatar parameters, what haptics routers and avatar creators ask
// of a glove. Per finger (thumb, index, middle, ring, little):
//
//	/avatar/parameters/<curl>       f 0 (straight) to 1 (every flexion joint at its limit)
//	/avatar/parameters/<proximity>  f 1 touching, falling to 0 at the near band's edge (frame.proximity_m) and beyond
//	/avatar/parameters/<velocity>   f how fast the finger closes on the nearest surface, -1 to 1 (1 at the approach speed or faster; negative moving away)
//	/avatar/parameters/<touch>      T/F the finger touches the scene or another hand
//
// and per hand /avatar/parameters/<pinch> T/F for index to little (a
// pinch against the thumb) and /avatar/parameters/<fist> T/F. The names
// are templates (Names: {hand}, {finger}, capitalised {Hand}, {Finger});
// by default gloved/{hand}/{finger}/curl and so on.
//
// What VRChat takes, and how this profile keeps to it:
//
//   - Bare messages, one parameter each, to VRChat's OSC input (UDP
//     127.0.0.1:9000 by default): the form VRChat's documentation
//     describes and its examples send. (VRChat's OSC library,
//     vrchat/OscCore, gained functions to build bundles in 2023, its
//     pull request 4; what VRChat does with a bundle it receives is not
//     documented, so none is sent.)
//   - Types int, float and bool: floats here are within -1 to 1 (VRChat
//     synchronises a float parameter to other players as a multiple of
//     1/127 in that range), bools are the OSC 1.1 tags T and F.
//   - Rate: VRChat documents no limit on OSC input, but synchronises
//     avatar parameters to other players at most about ten times a
//     second: more is of no use to them. The profile sends at most
//     Rate ticks a second (10 by default, of the glove's sample clock:
//     real time for a glove and for a replay at speed 1), and at each tick
//     only the parameters that changed (a float by at least 1/127, a bool
//     at all), every parameter once a second besides, so that an avatar
//     loaded late gets them. Between ticks a bool that rose is held
//     until the next tick (a tap shorter than a tick is still sent) and
//     proximity is the peak since the last tick.
//
// Sources: VRChat's OSC documentation (docs.vrchat.com: "OSC Overview" for
// the ports, "OSC Avatar Parameters" for /avatar/parameters/<name> and
// the types, "OSC DIY" for int, float and bool as the supported
// parameter types); creators.vrchat.com, "Animator Parameters" (synced
// floats as multiples of 1/127 between -1 and 1, parameter sync at most
// every 0.1 s); the OSC 1.1 type tags T and F; go-osc reads the messages
// back in the tests, T and F as booleans.
package vrchat
