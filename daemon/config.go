package daemon

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is the daemon's configuration file (TOML). See configs/*.toml
// for commented examples and the README for the reference.
type Config struct {
	Hands   []HandConfig  `toml:"hand"`
	Scene   SceneConfig   `toml:"scene"`
	OSC     OSCConfig     `toml:"osc"`
	Frame   FrameConfig   `toml:"frame"`
	Log     LogConfig     `toml:"log"`
	Metrics MetricsConfig `toml:"metrics"`
	// Path is the file the config came from ("" for built-in); relative
	// paths in it are relative to its directory.
	Path string `toml:"-"`
}

// HandConfig is one glove and the hand it drives.
type HandConfig struct {
	Name        string    `toml:"name"`        // OSC address segment: /gloved/<name>/...
	Device      string    `toml:"device"`      // cyberglove | replay | sim
	Port        string    `toml:"port"`        // cyberglove: serial port
	Baud        int       `toml:"baud"`        // cyberglove: 115200 by default
	Sensors     int       `toml:"sensors"`     // 18 or 22 (0: ask the glove; sim: 22)
	Side        string    `toml:"side"`        // right | left (cyberglove: the glove says)
	Calibration string    `toml:"calibration"` // calibration file (default: shipped)
	Recording   string    `toml:"recording"`   // replay: the file to play; cyberglove/sim: record to this file
	Wrist       []float64 `toml:"wrist"`       // fixed wrist pose qw qx qy qz tx ty tz
	Motion      string    `toml:"motion"`      // sim: grasp | tap | pinch
	Length      float64   `toml:"length"`      // hand length, m
	Breadth     float64   `toml:"breadth"`     // hand breadth, m
	Loop        bool      `toml:"loop"`        // replay: start again at the end
	Speed       string    `toml:"speed"`       // replay: "1" (real time, default) or "max" (every sample, as fast as frames run)
}

// SceneConfig lists the scene's files.
type SceneConfig struct {
	Files []SceneFile `toml:"files"`
}

// SceneFile is one mesh file placed in the world: path ("builtin:grasp"
// is the shipped table with a ball), then up axis, scale and transform.
type SceneFile struct {
	Path      string    `toml:"path"`
	Scale     float64   `toml:"scale"`
	Up        string    `toml:"up"`
	Transform []float64 `toml:"transform"` // qw qx qy qz tx ty tz
}

// OSCConfig is where frames go and where the daemon listens.
type OSCConfig struct {
	Targets []string `toml:"targets"`
	Listen  string   `toml:"listen"`
	Prefix  string   `toml:"prefix"`
}

// FrameConfig sets the frame budget and the proximity band.
type FrameConfig struct {
	BudgetMS   float64 `toml:"budget_ms"`
	ProximityM float64 `toml:"proximity_m"`
	CountTris  *bool   `toml:"count_tris"`
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

// LoadConfig reads and checks a config file.
func LoadConfig(path string) (*Config, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return ParseConfig(path, text)
}

// ParseConfig parses and checks config TOML; name labels errors and
// anchors relative paths.
func ParseConfig(name string, text []byte) (*Config, error) {
	var c Config
	md, err := toml.Decode(string(text), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w: %s: line %d: %s", ErrConfig, name, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrConfig, name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%w: %s: unknown key %s", ErrConfig, name, strings.Join(keys, ", "))
	}
	c.Path = name
	c.defaults()
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrConfig, name, err)
	}
	return &c, nil
}

// Normalize fills defaults and checks a Config built in code, as
// ParseConfig does for a file.
func (c *Config) Normalize() error {
	c.defaults()
	if err := c.check(); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

func (c *Config) defaults() {
	if c.OSC.Listen == "" {
		c.OSC.Listen = "127.0.0.1:9001"
	}
	if c.OSC.Prefix == "" {
		c.OSC.Prefix = "/gloved"
	}
	if c.Frame.BudgetMS == 0 {
		c.Frame.BudgetMS = 5
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
	for i := range c.Hands {
		h := &c.Hands[i]
		if h.Baud == 0 {
			h.Baud = 115200
		}
		if h.Motion == "" {
			h.Motion = "grasp"
		}
		if h.Length == 0 {
			h.Length = 0.19
		}
		if h.Breadth == 0 {
			h.Breadth = 0.085
		}
	}
}

// Resolve returns p relative to the config's directory.
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "builtin:") || c.Path == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.Path), p)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func checkPose(key string, v []float64) error {
	if v == nil {
		return nil
	}
	if len(v) != 7 {
		return fmt.Errorf("%s: want 7 numbers (qw qx qy qz tx ty tz), got %d", key, len(v))
	}
	for _, x := range v {
		if !finite(x) {
			return fmt.Errorf("%s: %v is not a finite number", key, x)
		}
	}
	if v[0]*v[0]+v[1]*v[1]+v[2]*v[2]+v[3]*v[3] < 1e-12 {
		return fmt.Errorf("%s: the quaternion is zero", key)
	}
	return nil
}

func (c *Config) check() error {
	if len(c.Hands) == 0 {
		return fmt.Errorf("no [[hand]]: at least one hand is needed")
	}
	names := map[string]bool{}
	for i, h := range c.Hands {
		key := fmt.Sprintf("hand[%d]", i)
		if h.Name == "" || strings.ContainsAny(h.Name, "/ #*,?[]{}") {
			return fmt.Errorf("%s.name = %q: want a name usable in an OSC address (no spaces or /#*,?[]{})", key, h.Name)
		}
		if names[h.Name] {
			return fmt.Errorf("%s.name = %q: used by another hand", key, h.Name)
		}
		names[h.Name] = true
		switch h.Device {
		case "cyberglove":
			if h.Port == "" {
				return fmt.Errorf("%s.port: a cyberglove needs its serial port", key)
			}
		case "replay":
			if h.Recording == "" {
				return fmt.Errorf("%s.recording: a replay needs a recording file", key)
			}
			if h.Speed != "" && h.Speed != "1" && h.Speed != "max" {
				return fmt.Errorf("%s.speed = %q: want \"1\" or \"max\"", key, h.Speed)
			}
		case "sim":
			switch h.Motion {
			case "grasp", "tap", "pinch":
			default:
				return fmt.Errorf("%s.motion = %q: want grasp, tap or pinch", key, h.Motion)
			}
		default:
			return fmt.Errorf("%s.device = %q: want cyberglove, replay or sim", key, h.Device)
		}
		if h.Sensors != 0 && h.Sensors != 18 && h.Sensors != 22 {
			return fmt.Errorf("%s.sensors = %d: want 18 or 22", key, h.Sensors)
		}
		if h.Side != "" && h.Side != "right" && h.Side != "left" {
			return fmt.Errorf("%s.side = %q: want right or left", key, h.Side)
		}
		if h.Baud <= 0 {
			return fmt.Errorf("%s.baud = %d: want a positive rate", key, h.Baud)
		}
		if !(h.Length >= 0.05 && h.Length <= 0.4) || !(h.Breadth >= 0.02 && h.Breadth <= 0.2) {
			return fmt.Errorf("%s.length/breadth = %v/%v m: want 0.05-0.4 and 0.02-0.2", key, h.Length, h.Breadth)
		}
		if err := checkPose(key+".wrist", h.Wrist); err != nil {
			return err
		}
	}
	for i, f := range c.Scene.Files {
		key := fmt.Sprintf("scene.files[%d]", i)
		if f.Path == "" {
			return fmt.Errorf("%s.path: missing", key)
		}
		if f.Scale < 0 || !finite(f.Scale) {
			return fmt.Errorf("%s.scale = %v: want a positive number", key, f.Scale)
		}
		if f.Up != "" && f.Up != "y" && f.Up != "z" {
			return fmt.Errorf("%s.up = %q: want \"y\" or \"z\"", key, f.Up)
		}
		if err := checkPose(key+".transform", f.Transform); err != nil {
			return err
		}
	}
	if !strings.HasPrefix(c.OSC.Prefix, "/") || strings.ContainsAny(c.OSC.Prefix, " #*,?[]{}") || strings.HasSuffix(c.OSC.Prefix, "/") {
		return fmt.Errorf("osc.prefix = %q: want an OSC address like /gloved", c.OSC.Prefix)
	}
	if !(c.Frame.BudgetMS > 0 && c.Frame.BudgetMS <= 1000) {
		return fmt.Errorf("frame.budget_ms = %v: want 0 < budget <= 1000", c.Frame.BudgetMS)
	}
	if !(c.Frame.ProximityM >= 0 && c.Frame.ProximityM <= 1) {
		return fmt.Errorf("frame.proximity_m = %v: want 0 to 1 m", c.Frame.ProximityM)
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
