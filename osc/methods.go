package osc

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// Units of the contract, by the OSCQuery proposal's names.
const (
	unitMetre  = "distance.m"
	unitRadian = "angle.radian"
	unitMS     = "time.ms"
	unitSecond = "time.second"
)

// Arguments the contract repeats.
var (
	argLink      = Arg{Type: 's', Name: "link"}
	argObject    = Arg{Type: 's', Name: "object"}
	argOther     = Arg{Type: 's', Name: "other hand"}
	argOtherLink = Arg{Type: 's', Name: "other link"}
	argBegin     = Arg{Type: 'i', Name: "begin (1) or end (0)", Range: Between(0, 1)}
	argHost      = Arg{Type: 's', Name: "host"}
	argPort      = Arg{Type: 'i', Name: "port", Range: Between(1, 65535)}
	argToken     = Arg{Type: 's', Name: "token", Optional: true}
)

// Vec3Args returns a vector's three float arguments, named name x, y, z,
// in unit: a position as Writer.Pose writes it, a point. Markdown shows
// them as one entry.
func Vec3Args(name, unit string) []Arg {
	return []Arg{{Type: 'f', Name: name + " x", Unit: unit}, {Type: 'f', Name: name + " y", Unit: unit}, {Type: 'f', Name: name + " z", Unit: unit}}
}

// unitVec3 is a unit vector's three float arguments.
func unitVec3(name string) []Arg {
	v := Vec3Args(name, "")
	for i := range v {
		v[i].Range = Between(-1, 1)
	}
	return v
}

// QuatArgs returns a unit quaternion's four float arguments, named name
// qx, qy, qz, qw, each within -1 to 1: a rotation as Writer.Pose writes
// it. Markdown shows them as one entry.
func QuatArgs(name string) []Arg {
	q := unitVec3(name)
	for i, c := range []string{" qx", " qy", " qz"} {
		q[i].Name = name + c
	}
	return append(q, Arg{Type: 'f', Name: name + " qw", Range: Between(-1, 1)})
}

func args(groups ...[]Arg) []Arg {
	var out []Arg
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func one(a ...Arg) []Arg { return a }

// fingerArgs are one float argument a finger, thumb to little.
func fingerArgs(name string, r *Range) []Arg {
	var out []Arg
	for _, f := range [...]string{"thumb", "index", "middle", "ring", "little"} {
		out = append(out, Arg{Type: 'f', Name: f + " " + name, Range: r})
	}
	return out
}

// controlArgs are the controls message's arguments: Controls' fields in
// order, a button an int 0 or 1.
func controlArgs() []Arg {
	axis := Between(-1, 1)
	out := []Arg{{Type: 'f', Name: "joystick x", Range: axis}, {Type: 'f', Name: "joystick y", Range: axis}, {Type: 'f', Name: "trigger", Range: Between(0, 1)}}
	for _, b := range ControlButtons {
		out = append(out, Arg{Type: 'i', Name: b, Range: Between(0, 1)})
	}
	return out
}

// Methods returns gloved's own contract: every message it sends for each
// hand, in the order a frame holds them, then what it accepts and
// answers on its listen address. AppendFrame writes the frame's messages;
// the Hub takes and answers the requests. Positions and lengths are in
// gloved's own coordinates, metres: MethodsIn(geom.Gloved).
func Methods() []Method { return MethodsIn(geom.Gloved) }

// MethodsIn returns gloved's contract with a hand's frames in convention
// c, as a gloved profile with coords sends them (ConvertFrame): their
// lengths in c's unit, and the descriptions of the messages that hold
// positions or directions ending with c's axes (InCoordinates). What
// gloved accepts and answers is in its own coordinates whatever c is.
func MethodsIn(c geom.Convention) []Method {
	status := OneOf("streaming", "degraded", "no-glove", "reconnecting", "stalled", "replay", "ended", "reloading")
	length := LengthUnit(c)
	argDepth := Arg{Type: 'f', Name: "depth", Unit: length, Range: AtLeast(0)}
	argDistance := Arg{Type: 'f', Name: "distance", Unit: length, Range: AtLeast(0)}
	in := func(d string) string { return describedIn(d, c) }
	return []Method{
		{Path: "{prefix}/{hand}/frame", Access: Sent, When: "every frame, first",
			Args: []Arg{{Type: 'i', Name: "sequence"}, {Type: 'f', Name: "pipeline time", Unit: unitMS, Range: AtLeast(0)},
				{Type: 'i', Name: "contacts", Range: Between(0, math.MaxInt32)}},
			Description: "The frame's number (counting the hand's frames since the daemon started; wraps as int32), the time its pipeline took, and how many contact messages follow."},
		{Path: "{prefix}/{hand}/sample", Access: Sent, When: "every frame",
			Args:        []Arg{{Type: 'i', Name: "sample number"}},
			Description: "The glove sample's own number: every sample the glove delivered since it was opened is numbered (low 32 bits), so a skip between frames is a sample the daemon dropped."},
		{Path: "{prefix}/{hand}/joints", Access: Sent, When: "every frame",
			Each: []Arg{{Type: 'f', Name: "angle", Unit: unitRadian}}, Per: PerJoint,
			Description: "The hand's joint angles: wrist_pitch, wrist_yaw, palm_arch, thumb_roll, thumb_abduction, thumb_mcp, thumb_ip, then for index, middle, ring and little: abduction, mcp, pip, dip."},
		{Path: "{prefix}/{hand}/links", Access: Sent, When: "every frame",
			Each: args(Vec3Args("position", length), QuatArgs("rotation")), Per: PerLink,
			Description: in("Each link's frame in the world: its origin (at the joint that moves it) and its orientation, links in the order palm, thumb1..3, index1..3, middle1..3, ring1..3, little1..3 (then forearm, if the hand has one). Each link's quaternion stays in the hemisphere of its previous one: no sign flips between frames.")},
		{Path: "{prefix}/{hand}/controls", Access: Sent, When: "every frame of a glove with controls (an OpenGloves glove; a CyberGlove has none)",
			Args: controlArgs(),
			Description: "The glove's own controls as its latest sample read them: the joystick (-1 to 1 each way, 0 centred: 2v/max - 1 of the raw value v at the glove's full scale max, as the OpenGloves driver reads it), the analog trigger (v/max), and each button and gesture the firmware reports, 1 while pressed. " +
				"Sent with every frame, like the joints, so a lost datagram costs one frame's state; an app takes a press as the frame its button goes from 0 to 1."},
		{Path: "{prefix}/{hand}/contact", Access: Sent, When: "one per touching (link, object)",
			Args:        args(one(argLink, argObject, argDepth), Vec3Args("point", length), unitVec3("normal")),
			Description: in("A link touching a scene object: the penetration depth, the contact point on the object, and the unit normal from the object toward the link (the way to push the link out).")},
		{Path: "{prefix}/{hand}/near", Access: Sent, When: "one per link within frame.proximity_m of an object it does not touch",
			Args:        args(one(argLink, argObject, argDistance), Vec3Args("point", length)),
			Description: in("A link near a scene object: their distance and the closest point on the object.")},
		{Path: "{prefix}/{hand}/feedback", Access: Sent, When: "every frame, with [feedback] enabled",
			Args:        append(fingerArgs("force", Between(0, 1)), Arg{Type: 'f', Name: "pulse", Range: Between(0, 1)}),
			Description: "Force feedback and haptics from the contacts (docs/gloves.md): each finger's force, thumb to little, 0 free to 1 unable to curl (1 minus the curl it touched at, held while it touches), and the amplitude of a pulse that began at this frame (a touch's approach speed over feedback.approach_mps), 0 for none."},
		{Path: "{prefix}/{hand}/touch", Access: Sent, When: "when a touch begins or ends",
			Args:        one(argLink, argObject, argBegin),
			Description: "A (link, object) touch beginning or ending, with hysteresis: a touch ends only after 3 frames without contact, so grazing does not flicker."},
		{Path: "{prefix}/{hand}/self", Access: Sent, When: "one per pair of the hand's links that touch",
			Args:        args(one(argLink, Arg{Type: 's', Name: "link b"}, argDepth), Vec3Args("point", length)),
			Description: in("Two links of the hand touching each other, never a link and its parent nor a pair already overlapping with the hand flat, each confirmed exactly on the links' hulls: the depth and the point midway between each link's deepest point in the other.")},
		{Path: "{prefix}/{hand}/pinch", Access: Sent, When: "when a pinch begins or ends",
			Args:        one(Arg{Type: 's', Name: "finger", Range: OneOf("index", "middle", "ring", "little")}, argBegin, argDistance),
			Description: "A finger's pinch against the thumb beginning (within self.pinch_on_m) or ending (beyond self.pinch_off_m), with the distance from the thumb's distal phalanx to the finger's two outer phalanges."},
		{Path: "{prefix}/{hand}/fist", Access: Sent, When: "when a fist begins or ends",
			Args:        one(argBegin, argDistance),
			Description: "The hand closing into a fist (all four fingertips within self.fist_on_m of the palm) or opening from one (one beyond self.fist_off_m), with the largest fingertip distance from the palm."},
		{Path: "{prefix}/{hand}/hand", Access: Sent, When: "one per pair of this hand's and another hand's links that touch",
			Args:        args(one(argOther, argLink, argOtherLink, argDepth), Vec3Args("point", length), unitVec3("normal")),
			Description: in("A link of this hand touching a link of another hand: the depth, the point on the other link's surface, and the unit normal from the other link toward this one (the way to push this link out).")},
		{Path: "{prefix}/{hand}/handnear", Access: Sent, When: "one per such pair within frame.proximity_m that does not touch",
			Args:        one(argOther, argLink, argOtherLink, argDistance),
			Description: "A link of this hand near a link of another hand, and their distance."},
		{Path: "{prefix}/{hand}/lod", Access: Sent, When: "when the test against another hand stopped before its leaves",
			Args: one(argOther, Arg{Type: 'i', Name: "level", Range: Between(0, 64)}),
			Description: "The test against that hand stopped at this depth of the hierarchies (the frame had no time left, or hand_contact.max_depth), where their boxes overlap: the hands may touch, and the pairs of links below were not measured. " +
				"Absent when the answer is exact, as it is whenever the budget allows."},
		{Path: "{prefix}/{hand}/status", Access: Sent, When: "on every change and at least once a second, in a frame's bundle or its own",
			Args:        one(Arg{Type: 's', Name: "state", Range: status}),
			Description: "The hand's state: streaming, degraded (streaming, but losing samples: over the last 2 s fewer than 80% of the glove's rate arrived, or a gap longer than frame.stall_ms; streaming again at 90%; or its frames fail, until one goes through; or a tracker sends only poses that are refused), no-glove, reconnecting, stalled (connected but silent; a looping replay whose passes yield no sample), replay, ended (a replay without loop has played to its end) or reloading (SIGHUP is replacing the daemon)."},
		{Path: "{prefix}/{hand}/rate", Access: Sent, When: "after each status of a glove on a serial line or the network (a tracker), once it has sent samples for a second",
			Args:        one(Arg{Type: 'f', Name: "samples a second", Range: AtLeast(0)}),
			Description: "The glove's samples a second that arrived over the last 2 s (or since it opened, if that is shorter, but at least a second): what degraded is judged on, against the rate the glove was set to send, or the steady rate of one that sets none."},
		{Path: "{prefix}/subscribe", Access: Accepted, When: "answered with {prefix}/subscribed, {prefix}/validate (to host:port) or {prefix}/refused",
			Args: one(argHost, argPort, argToken),
			Description: "Asks for frames at host:port (an address, or a name from a trusted source) for a lease of osc.lease_s; send it again to renew. " +
				"A destination that is not loopback gets no frame until it proves it receives there: it is sent {prefix}/validate, and this request and every renewal carry the token that came in it."},
		{Path: "{prefix}/unsubscribe", Access: Accepted, When: "answered with {prefix}/unsubscribed or {prefix}/refused",
			Args:        one(argHost, argPort, argToken),
			Description: "Ends a subscription, by its subscriber or its destination (the token, if sent, lets the answer reach a sender that is not loopback); one with nothing to end (ended already, its lease run out, a port mistyped) is refused, saying so."},
		{Path: "{prefix}/{hand}/wrist", Access: Accepted, When: "from loopback or osc.allow; not answered",
			Args:        args(Vec3Args("position", unitMetre), QuatArgs("rotation")),
			Description: "Sets the hand's wrist pose, overriding the config's wrist_pose and a recording's wrist channel; dropped unless finite, inside osc.wrist_box and of a non-zero quaternion."},
		{Path: "{prefix}/subscribed", Access: Sent, When: "to the requester, answering {prefix}/subscribe",
			Args:        one(Arg{Type: 's', Name: "address"}, argPort, Arg{Type: 'f', Name: "lease", Unit: unitSecond}),
			Description: "A subscription taken: the address and port frames go to, and how long until it lapses unless renewed."},
		{Path: "{prefix}/unsubscribed", Access: Sent, When: "to the requester, answering {prefix}/unsubscribe",
			Args:        one(argHost, argPort),
			Description: "A subscription ended."},
		{Path: "{prefix}/validate", Access: Sent, When: "to a destination that is not loopback, answering {prefix}/subscribe without its token, or with one about to expire",
			Args: one(Arg{Type: 's', Name: "token"}),
			Description: "The destination's token: frames go to host:port once a {prefix}/subscribe of it comes back with the token (from the destination's host, or from a trusted source the rules let subscribe it). " +
				"A token is good for 2 to 4 minutes; renewals get a new one before it runs out."},
		{Path: "{prefix}/refused", Access: Sent, When: "to the requester, answering a request the rules refuse",
			Args:        one(Arg{Type: 's', Name: "reason"}),
			Description: "Why a subscription or unsubscription was refused. Not sent to a requester that is not loopback and has not sent its token when longer than the request (the daemon logs it)."},
	}
}
