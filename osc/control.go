package osc

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
)

// Limits of what the hub decodes.
const (
	maxBundleDepth = 4   // bundles nested deeper are malformed
	maxHostLen     = 253 // the longest DNS name
)

// controlAddresses are the hub's own message addresses under its prefix.
type controlAddresses struct {
	prefix, subscribe, unsubscribe, subscribed, unsubscribed, refused, validate string
}

func newControlAddresses(prefix string) controlAddresses {
	return controlAddresses{prefix: prefix, subscribe: prefix + "/subscribe", unsubscribe: prefix + "/unsubscribe",
		subscribed: prefix + "/subscribed", unsubscribed: prefix + "/unsubscribed", refused: prefix + "/refused", validate: prefix + "/validate"}
}

// parse decodes a packet with go-osc, turning its panics into errors.
func parse(b []byte) (p goosc.Packet, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("osc: decoder panic: %v", r)
		}
	}()
	return goosc.ParsePacket(string(b))
}

// maxRequests is how many subscribe and unsubscribe requests one
// datagram may make: a bundle of 64 KB could hold some 1,800, each an
// HMAC and the hub's lock on the receive path. The rest are refused.
const maxRequests = 8

// handle takes one datagram from src: all its messages, or none when it
// is malformed; at most maxRequests of them subscriptions.
func (h *Hub) handle(b []byte, src netip.AddrPort) {
	src = netip.AddrPortFrom(src.Addr().Unmap(), src.Port())
	reqs, err := decode(b, nil)
	if err != nil {
		h.Stats.Malformed.Add(1)
		return
	}
	n := 0
	for _, r := range reqs {
		if a := r.m.Address; a == h.addr.subscribe || a == h.addr.unsubscribe {
			if n++; n > maxRequests {
				h.Stats.Refused.Add(1)
				continue
			}
		}
		h.message(r, src)
	}
}

// message routes one message: subscriptions are open to any source under
// the policy; control messages only to trusted ones.
func (h *Hub) message(r request, src netip.AddrPort) {
	switch m := r.m; {
	case m.Address == h.addr.subscribe:
		h.request(r, src, false)
	case m.Address == h.addr.unsubscribe:
		h.request(r, src, true)
	case strings.HasPrefix(m.Address, h.addr.prefix+"/") && strings.HasSuffix(m.Address, "/wrist"):
		if !h.trusted(src.Addr()) {
			h.Stats.Denied.Add(1)
			h.logf(logDenied, "osc: control message from a source neither loopback nor in osc.allow dropped",
				"source", src.String(), "address", m.Address)
			return
		}
		h.wrist(r.m, src)
	default:
		h.Stats.Unknown.Add(1)
	}
}

// wrist passes on a wrist pose that is well formed, finite and inside
// the workspace box.
func (h *Hub) wrist(m *goosc.Message, src netip.AddrPort) {
	hand := strings.TrimSuffix(strings.TrimPrefix(m.Address, h.addr.prefix+"/"), "/wrist")
	if len(m.Arguments) != 7 || hand == "" || strings.Contains(hand, "/") {
		h.Stats.Rejected.Add(1)
		return
	}
	var v [7]float64
	for i, a := range m.Arguments {
		f, ok := a.(float32)
		if !ok {
			h.Stats.Rejected.Add(1)
			return
		}
		v[i] = float64(f)
	}
	p := mgl64.Vec3{v[0], v[1], v[2]}
	q := mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}
	n := q.Len()
	if why := badPose(h.Policy().WristBox, p, n); why != "" {
		h.Stats.BadPoses.Add(1)
		h.logf(logBadPose, why, "source", src.String(), "hand", hand, "position", fmt.Sprint(p))
		return
	}
	if h.OnWrist == nil || !h.OnWrist(hand, p, q.Scale(1/n)) {
		h.Stats.Unknown.Add(1)
	}
}

// badPose is the log line for a wrist pose, position p and a quaternion
// of length n, that is dropped, or "": each reason its own line, so that
// the log says which.
func badPose(box geom.AABB, p mgl64.Vec3, n float64) string {
	switch {
	case !geom.Finite3(p):
		return "osc: wrist pose dropped: the position is not finite"
	case !inBox(box, p):
		return "osc: wrist pose dropped: the position is outside osc.wrist_box"
	case !geom.Finite(n):
		return "osc: wrist pose dropped: the rotation is not finite"
	case n == 0:
		return "osc: wrist pose dropped: the rotation quaternion (x y z w) is zero, which is no rotation: send a unit quaternion, 0 0 0 1 for none"
	case n < geom.MinQuatLen:
		return "osc: wrist pose dropped: the rotation quaternion (x y z w) is shorter than 1e-9, too short to say a rotation: send a unit quaternion, 0 0 0 1 for none"
	}
	return ""
}

// hostPort reads the s host, i port and optional s token arguments of
// /subscribe and /unsubscribe.
func hostPort(args []any) (host string, port uint16, token string, ok bool) {
	if len(args) == 3 {
		if token, ok = args[2].(string); !ok {
			return "", 0, "", false
		}
		args = args[:2]
	}
	if len(args) != 2 {
		return "", 0, "", false
	}
	host, ok1 := args[0].(string)
	p, ok2 := args[1].(int32)
	if !ok1 || !ok2 || p <= 0 || p > 65535 || !validHost(host) {
		return "", 0, "", false
	}
	return host, uint16(p), token, true
}

// validHost reports whether s is an IP address or a syntactically valid
// host name.
func validHost(s string) bool {
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	if s == "" || len(s) > maxHostLen {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
