package opengloves

import "strconv"

// Form says which optional keys a firmware sends: the LucidGloves
// firmware sends the curls, joystick, trigger and pressed flags always,
// the splays when built with USING_SPLAY; no public firmware sends the
// per-joint curls, which the encoding has room for.
type Form struct {
	Splay, Joints bool
}

// AppendLine appends one line as the firmware encodes it (its order:
// A..E, F, G, P, the pressed flags H..O, then the splays, then the
// per-joint curls), newline included. v holds every channel's value; a
// flag is pressed when non-zero.
func AppendLine(b []byte, v *[Channels]uint16, f Form) []byte {
	for c := range 5 {
		b = append(b, byte('A'+c))
		b = strconv.AppendUint(b, uint64(v[Curl+c]), 10)
	}
	for _, kv := range [3]struct {
		key byte
		c   int
	}{{'F', JoyX}, {'G', JoyY}, {'P', Trigger}} {
		b = append(b, kv.key)
		b = strconv.AppendUint(b, uint64(v[kv.c]), 10)
	}
	for i := range 8 {
		if v[Flag+i] != 0 {
			b = append(b, byte('H'+i))
		}
	}
	if f.Splay {
		for c := range 5 {
			b = append(b, '(', byte('A'+c), 'B', ')')
			b = strconv.AppendUint(b, uint64(v[Splay+c]), 10)
		}
	}
	if f.Joints {
		for c := range 20 {
			b = append(b, '(', byte('A'+c/4), 'A', byte('A'+c%4), ')')
			b = strconv.AppendUint(b, uint64(v[Joint+c]), 10)
		}
	}
	return append(b, '\n')
}

// AppendFeedback appends a line to the glove, newline included: each
// finger's force-feedback value, thumb to little, "A%dB%dC%dD%dE%d" as
// the OpenGloves driver writes it (0 free to 1000 unable to curl), and
// when amplitude is above 0 a haptic pulse's keys "F%.2fG%.2fH%.2f"
// (frequency in Hz, duration in seconds, amplitude 0 to 1) on the same
// line. One line, not the driver's two: the LucidGloves firmware's
// decoder starts each line's servo values at zero and writes all five,
// so a haptic line of its own would free every finger it holds.
func AppendFeedback(b []byte, servo *[5]uint16, hz, seconds, amplitude float64) []byte {
	for f, v := range servo {
		b = append(b, byte('A'+f))
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	if amplitude > 0 {
		for _, kv := range [3]struct {
			key byte
			v   float64
		}{{'F', hz}, {'G', seconds}, {'H', amplitude}} {
			b = append(b, kv.key)
			b = strconv.AppendFloat(b, kv.v, 'f', 2, 64)
		}
	}
	return append(b, '\n')
}
