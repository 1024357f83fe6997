package tracker

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc/vmc"
)

// The device keys' values.
const (
	VMC = "vmc"
	OSC = "osc"
)

// Default listening addresses: loopback, VMC's marionette port (where a
// VMC performer such as XR Animator sends by default), and for gloved's
// own messages the port after gloved's (osc.DefaultListen's 9431).
var (
	DefaultVMCListen = fmt.Sprintf("127.0.0.1:%d", vmc.DefaultPort)
	DefaultOSCListen = "127.0.0.1:9432"
)

// DefaultHoldMS is how long the hand holds its last pose once the
// tracking is lost, unless options.hold_ms says.
const DefaultHoldMS = 500

// maxHoldMS bounds hold_ms: an hour; -1 holds the pose for good.
const maxHoldMS = 3_600_000

// Layout is a tracker's samples: the hand model's joint angles, in its
// order, each moving its joint.
var Layout = func() *devices.Layout {
	l := &devices.Layout{Name: "tracker-joints", Bits: devices.Bits8}
	for j := range handmodel.NumJoints {
		l.Angles = append(l.Angles, devices.Channel{Name: j.String(), Joints: devices.Moves(j.String())})
	}
	return l
}()

func init() {
	holdDoc := fmt.Sprintf("how long, in ms, the hand holds its last pose once the tracking is lost (the tracker silent for 100 ms, or saying so), counted from that moment, before it opens flat: %d by default; 0 opens it at once, -1 holds it for good", DefaultHoldMS)
	driver.Register(&driver.Driver{
		Name:    VMC,
		Summary: "a hand tracker sending VMC (XR Animator, a VSeeFace-style performer, a Quest or Ultraleap bridge): its finger bones over UDP",
		Keys: []driver.Key{
			{Name: "side", Doc: "right (the default) or left: the side whose bones (Right..., Left...) drive the hand"},
			{Name: "options.listen", Doc: "the address:port to listen on: " + DefaultVMCListen + " by default (loopback; datagrams from other hosts are taken only from osc.allow)"},
			{Name: "options.hold_ms", Doc: holdDoc},
			{Name: "recording", Doc: "record the session's samples (joint angles) to this file"},
		},
		Check:   checkVMC,
		Open:    openVMC,
		Listens: listensVMC,
		Layouts: []*devices.Layout{Layout},
	})
	driver.Register(&driver.Driver{
		Name:    OSC,
		Summary: "a hand tracker sending gloved's own OSC: the joint angles (<prefix>/<hand>/joints) or the openxr profile's 26 OpenXR joints, over UDP",
		Keys: []driver.Key{
			{Name: "side", Doc: "right (the default) or left"},
			{Name: "options.listen", Doc: "the address:port to listen on: " + DefaultOSCListen + " by default (loopback; datagrams from other hosts are taken only from osc.allow)"},
			{Name: "options.prefix", Doc: `the messages' prefix: "/gloved" by default`},
			{Name: "options.hand", Doc: "the hand's name in the messages' addresses: the side (right or left) by default"},
			{Name: "options.coords", Doc: "the OpenXR joints' coordinates, as the openxr profile's coords: gloved (the default), unity, unreal or ros"},
			{Name: "options.hold_ms", Doc: holdDoc},
			{Name: "recording", Doc: "record the session's samples (joint angles) to this file"},
		},
		Check:   checkOSC,
		Open:    openOSC,
		Listens: listensOSC,
		Layouts: []*devices.Layout{Layout},
	})
}

// options are the drivers' own keys, the hand's options table.
type options struct {
	Listen string `toml:"listen"`
	HoldMS *int   `toml:"hold_ms"`
	Prefix string `toml:"prefix"`
	Hand   string `toml:"hand"`
	Coords string `toml:"coords"`
}

// settings are the options read and checked.
type settings struct {
	listen netip.AddrPort
	hold   time.Duration
	prefix string
	hand   string
	coords geom.Convention
}

// decode reads a driver's options, its defaults filled in; osc says
// whether prefix, hand and coords are among them.
func decode(c *driver.Config, listen string, oscKeys bool) (settings, error) {
	var o options
	if err := c.Options.Decode(&o); err != nil {
		return settings{}, err
	}
	if !oscKeys && (o.Prefix != "" || o.Hand != "" || o.Coords != "") {
		return settings{}, fmt.Errorf("options: prefix, hand and coords are the osc tracker's; a VMC performer names its bones")
	}
	if c.Poll || c.Period != 0 {
		return settings{}, fmt.Errorf("poll and rate: a tracker sends at its own rate; leave them out")
	}
	s := settings{prefix: "/gloved", hand: c.Side, coords: geom.Gloved, hold: DefaultHoldMS * time.Millisecond}
	if s.hand == "" {
		s.hand = "right"
	}
	if o.Listen != "" {
		listen = o.Listen
	}
	a, err := netip.ParseAddrPort(listen)
	if err != nil || a.Port() == 0 {
		return s, fmt.Errorf("options.listen = %q: want an address and a port, such as %s", listen, DefaultVMCListen)
	}
	s.listen = a
	if o.HoldMS != nil {
		if *o.HoldMS < -1 || *o.HoldMS > maxHoldMS {
			return s, fmt.Errorf("options.hold_ms = %d: want -1 (hold for good) or 0 to %d", *o.HoldMS, maxHoldMS)
		}
		s.hold = time.Duration(*o.HoldMS) * time.Millisecond
	}
	if o.Prefix != "" {
		if !strings.HasPrefix(o.Prefix, "/") || strings.HasSuffix(o.Prefix, "/") || strings.ContainsAny(o.Prefix, " #*,?[]{}") {
			return s, fmt.Errorf("options.prefix = %q: want an OSC address such as /gloved", o.Prefix)
		}
		s.prefix = o.Prefix
	}
	if o.Hand != "" {
		if strings.ContainsAny(o.Hand, "/ #*,?[]{}") {
			return s, fmt.Errorf("options.hand = %q: want one address segment, such as right", o.Hand)
		}
		s.hand = o.Hand
	}
	if o.Coords != "" {
		cv, ok := geom.ConventionNamed(o.Coords)
		if !ok {
			return s, fmt.Errorf("options.coords = %q: want gloved, unity, unreal or ros", o.Coords)
		}
		s.coords = cv
	}
	return s, nil
}

func checkVMC(c *driver.Config) error {
	_, err := listensVMC(c)
	return err
}

func checkOSC(c *driver.Config) error {
	_, err := listensOSC(c)
	return err
}

func listensVMC(c *driver.Config) (netip.AddrPort, error) {
	s, err := decode(c, DefaultVMCListen, false)
	return s.listen, err
}

func listensOSC(c *driver.Config) (netip.AddrPort, error) {
	s, err := decode(c, DefaultOSCListen, true)
	return s.listen, err
}

func openVMC(c driver.Config) (*driver.Opened, error) {
	s, err := decode(&c, DefaultVMCListen, false)
	if err != nil {
		return nil, err
	}
	dec, err := newVMC(hand(c))
	if err != nil {
		return nil, err
	}
	return open(VMC, c, s, dec)
}

func openOSC(c driver.Config) (*driver.Opened, error) {
	s, err := decode(&c, DefaultOSCListen, true)
	if err != nil {
		return nil, err
	}
	dec, err := newOSC(s.prefix, s.hand, hand(c), s.coords)
	if err != nil {
		return nil, err
	}
	return open(OSC, c, s, dec)
}

// hand is the procedural hand of the config's side and size, on which a
// tracker's bones are read.
func hand(c driver.Config) handmodel.Params {
	p := handmodel.Params{Length: c.Length, Breadth: c.Breadth, Right: c.Side != "left"}
	if p.Length == 0 || p.Breadth == 0 {
		p.Length, p.Breadth = handmodel.DefaultParams.Length, handmodel.DefaultParams.Breadth
	}
	return p
}

// open listens for the tracker.
func open(name string, c driver.Config, s settings, dec decoder) (*driver.Opened, error) {
	info := devices.GloveInfo{Model: name, Right: c.Side != "left"}
	g, err := newGlove(s.listen, c.Allow, s.hold, dec, info)
	if err != nil {
		return nil, fmt.Errorf("tracker: options.%w", err)
	}
	h := recording.Header{Model: name, Hand: info.Hand(), Mode: "stream", Source: s.listen.String()}
	return &driver.Opened{Device: g, Info: info, Header: h}, nil
}
