package daemon

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/feedback"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/selfcontact"
	"github.com/gloved/gloved/session"
)

// Config is the daemon's configuration file (TOML). See configs/*.toml
// for commented examples and the README for the reference.
type Config struct {
	Hands []HandConfig `toml:"hand"`
	Scene SceneConfig  `toml:"scene"`
	OSC   OSCConfig    `toml:"osc"`
	Frame FrameConfig  `toml:"frame"`
	Self  SelfConfig   `toml:"self"`
	// Feedback is force feedback and haptics from the contacts.
	Feedback FeedbackConfig `toml:"feedback"`
	// HandContact tunes the tests between hands.
	HandContact HandContactConfig `toml:"hand_contact"`
	Log         LogConfig         `toml:"log"`
	Metrics     MetricsConfig     `toml:"metrics"`
	// View is the live 3D page.
	View ViewConfig `toml:"view"`
	// OSCQuery is the OSCQuery service: the tree, its advertisement and
	// the discovery of apps to send to.
	OSCQuery OSCQueryConfig `toml:"oscquery"`
	// Path is the file the config came from ("" for built-in); relative
	// paths in it are relative to its directory.
	Path string `toml:"-"`
	// Warnings are what the file says in a form still read but no longer
	// written, each naming the form to write; `gloved run` logs them and
	// --check prints them.
	Warnings []string `toml:"-"`
}

// HandConfig is one glove and the hand it drives: a name for its OSC
// addresses, the session.Spec (its keys are the table's keys), and
// whether a replay loops.
type HandConfig struct {
	Name string `toml:"name"` // OSC address segment: /gloved/<name>/...
	session.Spec
	Loop bool `toml:"loop"` // replay: start again at the end, in the file it opened
	// written are the keys the file wrote in the table (nil for a hand
	// built in code): a zero written is checked, not taken for the
	// default (session.Spec.NormalizeWritten).
	written map[string]bool
}

// SceneConfig lists the scene's files, and the contact methods of the
// objects that are not to get the automatic choice.
type SceneConfig struct {
	Files []session.SceneFile `toml:"files"`
	// Methods names objects' contact methods: object name = method
	// (contact.Methods: convex, solid, surface, ...).
	Methods map[string]string `toml:"methods"`
}

// OSCConfig is where frames go, where the daemon listens and what it
// accepts there (the README's Security section).
type OSCConfig struct {
	Targets []string `toml:"targets"`
	Listen  string   `toml:"listen"`
	Prefix  string   `toml:"prefix"`
	// Allow lists trusted sources besides loopback, as CIDR prefixes or
	// addresses: they may send wrist poses and have frames sent to any
	// address in the list (osc.Policy.Allow).
	Allow []string `toml:"allow"`
	// LeaseS is how long a subscription lasts unless renewed, in seconds.
	LeaseS float64 `toml:"lease_s"`
	// PerSource bounds the subscriptions one source address holds.
	PerSource int `toml:"subscribers_per_source"`
	// WristBox bounds OSC wrist positions: [xmin, ymin, zmin, xmax, ymax,
	// zmax] in metres.
	WristBox []float64 `toml:"wrist_box"`
	// Profiles send the frames in other dialects or coordinates, each to
	// its own targets, besides gloved's own to Targets.
	Profiles []ProfileConfig `toml:"profile"`
}

// Limits of the OSC settings.
const (
	minLeaseS = 1
	maxLeaseS = 3600
)

func (o *OSCConfig) defaults() {
	if o.Listen == "" {
		o.Listen = osc.DefaultListen
	}
	if o.Prefix == "" {
		o.Prefix = "/gloved"
	}
	if o.LeaseS == 0 {
		o.LeaseS = osc.DefaultLease.Seconds()
	}
	if o.PerSource == 0 {
		o.PerSource = osc.DefaultPerSource
	}
	if o.WristBox == nil {
		b := osc.DefaultWristBox
		o.WristBox = []float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z}
	}
	o.profileDefaults()
}

func (o *OSCConfig) profileDefaults() {
	for i := range o.Profiles {
		o.Profiles[i].defaults()
	}
}

// check checks the [osc] settings, naming the key at fault.
func (o *OSCConfig) check() error {
	if _, port, err := net.SplitHostPort(o.Listen); err != nil || port == "" {
		return fmt.Errorf("osc.listen = %q: want host:port, such as 127.0.0.1:9431", o.Listen)
	}
	if err := osc.CheckPrefix(o.Prefix); err != nil {
		return fmt.Errorf("osc.prefix = %q: %v", configs.Clip(o.Prefix, 64), err)
	}
	if !(o.LeaseS >= minLeaseS && o.LeaseS <= maxLeaseS) {
		return fmt.Errorf("osc.lease_s = %v: want %d to %d seconds", o.LeaseS, minLeaseS, maxLeaseS)
	}
	if o.PerSource < 1 || o.PerSource > osc.MaxSubscribers {
		return fmt.Errorf("osc.subscribers_per_source = %d: want 1 to %d", o.PerSource, osc.MaxSubscribers)
	}
	for i, t := range o.Targets {
		if err := osc.CheckTarget(t); err != nil {
			return fmt.Errorf("osc.targets[%d] = %q: %v", i, t, err)
		}
	}
	_, err := o.Policy()
	return err
}

// Policy returns the hub's policy for these settings.
func (o *OSCConfig) Policy() (osc.Policy, error) {
	p := osc.Policy{Lease: time.Duration(o.LeaseS * float64(time.Second)), PerSource: o.PerSource}
	for i, a := range o.Allow {
		pre, err := netip.ParsePrefix(a)
		if ad, aerr := netip.ParseAddr(a); aerr == nil {
			pre, err = netip.PrefixFrom(ad, ad.BitLen()), nil
		}
		if err != nil {
			return p, fmt.Errorf("osc.allow[%d] = %q: want an address or a CIDR prefix such as 192.168.1.0/24", i, a)
		}
		p.Allow = append(p.Allow, pre)
	}
	b := o.WristBox
	if len(b) != 6 {
		return p, fmt.Errorf("osc.wrist_box: want 6 numbers [xmin, ymin, zmin, xmax, ymax, zmax] in metres, got %d", len(b))
	}
	for k := range 3 {
		if !(b[k] < b[k+3]) || !(b[k] >= -geom.MaxPosition) || !(b[k+3] <= geom.MaxPosition) {
			return p, fmt.Errorf("osc.wrist_box = %v: want each minimum below its maximum, all within ±%g m", b, geom.MaxPosition)
		}
	}
	p.WristBox = geom.AABB{Min: geom.Vec3{X: b[0], Y: b[1], Z: b[2]}, Max: geom.Vec3{X: b[3], Y: b[4], Z: b[5]}}
	return p, nil
}

// FrameConfig sets the frame budget and the proximity band.
type FrameConfig struct {
	BudgetMS   float64 `toml:"budget_ms"`
	StallMS    float64 `toml:"stall_ms"` // a connected glove silent this long is reported stalled
	ProximityM float64 `toml:"proximity_m"`
	CountTris  *bool   `toml:"count_tris"`
	// Accelerate false turns the contact methods' accelerations off
	// (warm starts, frame coherence, what is built at load to prune):
	// the same answers, slower. For showing that they are the same.
	Accelerate *bool `toml:"accelerate"`
	// Workers is how many goroutines may share a costly frame's contacts
	// (contact.Options.Workers): 0, the default, one per CPU (at most 4);
	// 1 leaves the other cores to the machine's other programs.
	Workers int `toml:"workers"`
}

// SelfConfig tunes self-contact: the hand against itself, pinch and fist
// (distances in metres; package selfcontact).
type SelfConfig struct {
	Enabled   *bool   `toml:"enabled"` // default true
	SlackM    float64 `toml:"slack_m"`
	PinchOnM  float64 `toml:"pinch_on_m"`
	PinchOffM float64 `toml:"pinch_off_m"`
	FistOnM   float64 `toml:"fist_on_m"`
	FistOffM  float64 `toml:"fist_off_m"`
}

// FeedbackConfig turns on force feedback and haptic pulses from the
// contacts (package feedback): the <prefix>/<hand>/feedback message, and
// the lines to a glove that takes them (devices.Sender: an OpenGloves
// glove).
type FeedbackConfig struct {
	Enabled     bool    `toml:"enabled"` // default false
	RateHz      float64 `toml:"rate_hz"`
	RefreshMS   float64 `toml:"refresh_ms"`
	ApproachMPS float64 `toml:"approach_mps"`
	PulseHz     float64 `toml:"pulse_hz"`
	PulseMS     float64 `toml:"pulse_ms"`
}

func (f *FeedbackConfig) defaults() {
	f.RateHz, f.RefreshMS, f.ApproachMPS = feedback.DefaultRate, ms(feedback.DefaultRefresh), feedback.DefaultApproach
	f.PulseHz, f.PulseMS = feedback.DefaultPulseHz, ms(feedback.DefaultPulse)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// options are the feedback options the table gives.
func (f FeedbackConfig) options() feedback.Options {
	return feedback.Options{Rate: f.RateHz, Refresh: time.Duration(f.RefreshMS * float64(time.Millisecond)), Approach: f.ApproachMPS,
		PulseHz: f.PulseHz, Pulse: time.Duration(f.PulseMS * float64(time.Millisecond))}
}

// check refuses a key written out of its range (a zero too: a key left
// out is its default).
func (f FeedbackConfig) check() error {
	for _, k := range []struct {
		key       string
		v, lo, hi float64
	}{{"rate_hz", f.RateHz, 1, feedback.MaxRate}, {"refresh_ms", f.RefreshMS, 100, 60000}, {"approach_mps", f.ApproachMPS, 0.01, 10},
		{"pulse_hz", f.PulseHz, 1, 1000}, {"pulse_ms", f.PulseMS, 1, ms(feedback.MaxPulse)}} {
		if !(k.v >= k.lo && k.v <= k.hi) {
			return fmt.Errorf("feedback.%s = %v: want %v to %v", k.key, k.v, k.lo, k.hi)
		}
	}
	return f.options().Check()
}

// HandContactConfig tunes the tests between hands, which run whenever
// there are two or more [[hand]]s (package handcontact).
type HandContactConfig struct {
	Enabled *bool `toml:"enabled"` // default true
	// MaxDepth caps the level of detail; by default the hands'
	// hierarchies are descended as deep as the frame budget allows.
	MaxDepth *int `toml:"max_depth"`
}

// maxDepthLimit bounds hand_contact.max_depth: a hand's hierarchy is
// about ten levels deep.
const maxDepthLimit = 64

// defaults fills the distances left zero with selfcontact's defaults.
func (s *SelfConfig) defaults() {
	d := selfcontact.DefaultOptions
	fill := func(dst *float64, v float64) {
		if *dst == 0 {
			*dst = v
		}
	}
	fill(&s.SlackM, d.Slack)
	fill(&s.PinchOnM, d.PinchOn)
	fill(&s.PinchOffM, d.PinchOff)
	fill(&s.FistOnM, d.FistOn)
	fill(&s.FistOffM, d.FistOff)
}

// options are the self-contact options the table gives.
func (s SelfConfig) options() selfcontact.Options {
	o := selfcontact.DefaultOptions
	o.Slack, o.PinchOn, o.PinchOff, o.FistOn, o.FistOff = s.SlackM, s.PinchOnM, s.PinchOffM, s.FistOnM, s.FistOffM
	return o
}

// LogConfig chooses the log level and format.
type LogConfig struct {
	Level  string `toml:"level"`  // debug | info | warn | error
	Format string `toml:"format"` // auto | console | json
}

// MetricsConfig enables the Prometheus endpoint.
type MetricsConfig struct {
	Listen string `toml:"listen"` // e.g. 127.0.0.1:9100; empty: off
}

// ErrConfig marks configuration errors (exit code 2).
var ErrConfig = errors.New("config")

// Invalid is err, a reason c cannot run, as a configuration error naming
// c's file: "config: lab.toml: scene: ...", or "config: the built-in
// demo: ..." for a run without a file.
func (c *Config) Invalid(err error) error {
	return &invalidError{file: cmp.Or(c.Path, "the built-in demo"), err: err}
}

// invalidError is Invalid's error: ErrConfig and the cause, both to
// errors.Is and errors.As, worded once ("config: FILE: cause", the
// cause's own "config: " left out).
type invalidError struct {
	file string
	err  error
}

func (e *invalidError) Error() string {
	return ErrConfig.Error() + ": " + e.file + ": " + strings.TrimPrefix(e.err.Error(), ErrConfig.Error()+": ")
}

func (e *invalidError) Unwrap() []error { return []error{ErrConfig, e.err} }

// DefaultBudgetMS is frame.budget_ms unless a config says otherwise.
const DefaultBudgetMS = 5.0

// configFile is what a config file may be: gloved's shipped ones take a
// few kilobytes.
var configFile = userfile.Kind{Name: "a config file", MaxBytes: 1_000_000}

// LoadConfig reads and checks a config file.
func LoadConfig(path string) (*Config, error) {
	text, err := userfile.ReadFile(path, configFile)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return ParseConfig(path, text)
}

// ParseConfig parses and checks config TOML; name labels errors and
// anchors relative paths.
func ParseConfig(name string, text []byte) (*Config, error) {
	// A key left out keeps its default; a key written is checked as
	// written: max_viewers = 0 is refused, not taken for the default.
	var c Config
	c.defaults()
	if err := configs.Decode(name, text, &c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	c.Path = name
	if err := c.noteWrittenHandKeys(text); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, userfile.Name(name), err)
	}
	c.warnOldForms(name)
	c.OSC.profileDefaults() // the profiles are the file's tables
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, userfile.Name(name), err)
	}
	return &c, nil
}

// Normalize fills defaults and checks a Config built in code, as
// ParseConfig does for a file.
func (c *Config) Normalize() error {
	c.defaults()
	if err := c.check(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func (c *Config) defaults() {
	c.OSC.defaults()
	c.OSCQuery.defaults()
	c.View.defaults()
	c.Self.defaults()
	c.Feedback.defaults()
	if c.Frame.StallMS == 0 {
		c.Frame.StallMS = 1000
	}
	if c.Frame.BudgetMS == 0 {
		c.Frame.BudgetMS = DefaultBudgetMS
	}
	if c.Frame.ProximityM == 0 {
		c.Frame.ProximityM = 0.01
	}
	if c.Log.Level == "" {
		c.Log.Level = "info"
	}
	if c.Log.Format == "" {
		c.Log.Format = "auto"
	}
}

// PipelineOptions are the frame pipeline's options the config gives, for
// every hand.
func (c *Config) PipelineOptions() session.PipelineOptions {
	opt := session.PipelineOptions{Proximity: c.Frame.ProximityM, Self: c.Self.options(), SelfContact: true, Methods: c.Scene.Methods}
	if e := c.Self.Enabled; e != nil {
		opt.SelfContact = *e
	}
	if ct := c.Frame.CountTris; ct != nil {
		opt.SkipTris = !*ct
	}
	if a := c.Frame.Accelerate; a != nil {
		opt.NoAccel = !*a
	}
	opt.Workers = c.Frame.Workers
	return opt
}

// HandPairs returns the tests between the config's hands, in their
// order: nil for one hand, or with [hand_contact] enabled = false.
func (c *Config) HandPairs() (*session.HandPairs, error) {
	if len(c.Hands) < 2 || (c.HandContact.Enabled != nil && !*c.HandContact.Enabled) {
		return nil, nil
	}
	o := session.HandPairsOptions{Proximity: c.Frame.ProximityM, MaxDepth: -1}
	if m := c.HandContact.MaxDepth; m != nil {
		o.MaxDepth = *m
	}
	names := make([]string, len(c.Hands))
	for i, h := range c.Hands {
		names[i] = h.Name
	}
	return session.NewHandPairs(names, o)
}

func (c *Config) check() error {
	if err := c.checkHands(); err != nil {
		return err
	}
	if err := c.checkRecordings(); err != nil {
		return err
	}
	if err := c.Feedback.check(); err != nil {
		return err
	}
	names := make([]string, len(c.Hands))
	for i, h := range c.Hands {
		names[i] = h.Name
	}
	for i := range c.OSC.Profiles {
		if err := c.OSC.Profiles[i].check(i, names); err != nil {
			return err
		}
	}
	for i, f := range c.Scene.Files {
		if err := f.Check(); err != nil {
			return fmt.Errorf("scene.files[%d].%w", i, err)
		}
	}
	return c.checkService()
}

// noteWrittenHandKeys notes which keys each [[hand]] table of text
// wrote. The hands are decoded into a slice the decoder makes, so
// defaults cannot be filled before decoding as they are for the other
// tables; text was decoded once already, so it parses.
func (c *Config) noteWrittenHandKeys(text []byte) error {
	var tables struct {
		Hands []map[string]any `toml:"hand"`
	}
	if _, err := toml.Decode(string(text), &tables); err != nil {
		return err
	}
	for i := range min(len(tables.Hands), len(c.Hands)) {
		c.Hands[i].written = map[string]bool{}
		for k := range tables.Hands[i] {
			c.Hands[i].written[k] = true
		}
	}
	return nil
}

// warnOldForms notes the keys of a config file name written in an old
// form.
func (c *Config) warnOldForms(name string) {
	for i, h := range c.Hands {
		if len(h.Wrist) == 7 && h.WristPose == nil {
			c.Warnings = append(c.Warnings, name+": "+session.OldOrder(
				fmt.Sprintf("hand[%d].wrist = %s", i, configs.Numbers(h.Wrist)), "wrist_pose = "+configs.Numbers(session.PositionFirstValues(h.Wrist))))
		}
	}
	for i, f := range c.Scene.Files {
		if len(f.Transform) == 7 && f.Pose == nil {
			c.Warnings = append(c.Warnings, name+": "+session.OldOrder(
				fmt.Sprintf("scene.files[%d].transform = %s", i, configs.Numbers(f.Transform)), "pose = "+configs.Numbers(session.PositionFirstValues(f.Transform))))
		}
	}
}

// maxHandName bounds a hand's name.
const maxHandName = 32

// handName reports whether s is a hand name: 1 to maxHandName ASCII
// letters, digits, _ and -. The name goes into OSC addresses, metric
// labels, log lines and the page; these are safe in all of them, and no
// control, bidirectional or OSC pattern character can slip in.
func handName(s string) bool {
	if s == "" || len(s) > maxHandName {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// MaxHands bounds the [[hand]] tables of a config. Hand-to-hand contact
// tests every pair of hands, and its memory grows with the square of
// their number: 100 simulated hands ran the daemon out of memory, while
// 16 (a lab of a few people, two gloves each) use about 110 MB.
const MaxHands = 16

func (c *Config) checkHands() error {
	if len(c.Hands) == 0 {
		return fmt.Errorf("no [[hand]]: at least one hand is needed")
	}
	if len(c.Hands) > MaxHands {
		return fmt.Errorf("hands: %d [[hand]] tables: at most %d; run a second daemon (with its own osc.listen) for more", len(c.Hands), MaxHands)
	}
	names := map[string]bool{}
	for i := range c.Hands {
		h := &c.Hands[i]
		key := fmt.Sprintf("hand[%d]", i)
		if !handName(h.Name) {
			return fmt.Errorf("%s.name = %q: want 1 to %d letters, digits, _ or - (such as right): it names the hand in OSC addresses, metrics, logs and the page", key, h.Name, maxHandName)
		}
		if names[h.Name] {
			return fmt.Errorf("%s.name = %q: used by another hand", key, h.Name)
		}
		names[h.Name] = true
		written := func(key string) bool { return h.written[key] }
		if err := h.Spec.NormalizeWritten(written); err != nil {
			return fmt.Errorf("%s.%w", key, err)
		}
	}
	return c.checkSerialPorts()
}

// checkSerialPorts refuses two serial gloves on one port: the second
// would find the port held by the first and blame another gloved. The
// ports are compared as files, as the daemon opens them: /dev/x and
// /dev/./x, or a symlink (a udev rule's name) and its device, are one.
func (c *Config) checkSerialPorts() error {
	for i := range c.Hands {
		h := &c.Hands[i]
		if !h.Spec.Serial() {
			continue
		}
		for j := range i {
			if o := &c.Hands[j]; o.Spec.Serial() && userfile.Same(c.Resolve(h.Port), c.Resolve(o.Port)) {
				return fmt.Errorf("hand[%d].port = %q and hand[%d].port = %q are one serial port: each glove needs its own port", j, o.Port, i, h.Port)
			}
		}
	}
	return nil
}

// checkService checks the OSC, frame and log settings.
func (c *Config) checkService() error {
	if err := c.OSC.check(); err != nil {
		return err
	}
	if err := c.View.check(); err != nil {
		return err
	}
	if err := c.OSCQuery.check(); err != nil {
		return err
	}
	if err := c.checkTargets(); err != nil {
		return err
	}
	if err := c.checkListeners(); err != nil {
		return err
	}
	if !(c.Frame.StallMS >= 50 && c.Frame.StallMS <= 60000) {
		return fmt.Errorf("frame.stall_ms = %v: want 50 to 60000", c.Frame.StallMS)
	}
	if !(c.Frame.BudgetMS >= 1e-6 && c.Frame.BudgetMS <= 1000) { // at least a nanosecond: 1e-9 was a budget of 0
		return fmt.Errorf("frame.budget_ms = %v: want 1e-06 (a nanosecond) to 1000", c.Frame.BudgetMS)
	}
	if !session.ProximityInRange(c.Frame.ProximityM) {
		return fmt.Errorf("frame.proximity_m = %v: want 0 to %g m", c.Frame.ProximityM, session.MaxProximity)
	}
	if !session.WorkersInRange(c.Frame.Workers) {
		return fmt.Errorf("frame.workers = %d: want 0 (one per CPU, at most %d) to %d", c.Frame.Workers, contact.MaxWorkers, contact.MaxWorkers)
	}
	if err := c.Self.options().Check(); err != nil {
		return fmt.Errorf("self: %w", err)
	}
	if m := c.HandContact.MaxDepth; m != nil && (*m < 0 || *m > maxDepthLimit) {
		return fmt.Errorf("hand_contact.max_depth = %d: want 0 (the hands' root boxes) to %d; leave it out for as deep as the frame budget allows", *m, maxDepthLimit)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level = %q: want debug, info, warn or error", c.Log.Level)
	}
	switch c.Log.Format {
	case "auto", "console", "json":
	default:
		return fmt.Errorf("log.format = %q: want auto, console or json", c.Log.Format)
	}
	return nil
}
