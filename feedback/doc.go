// Package feedback turns a hand's contacts into force feedback and
// haptic pulses: for each finger the limit a force-feedback glove's
// servo sets on its closing, and a pulse when a touch begins.
//
// A finger is held when one of its links first touches a scene object:
// its limit is the finger's curl at that frame (handmodel.Curls, 0 open
// to 1 closed), and its force 1 - limit, the share of its travel it may
// no longer close through (the OpenGloves convention: 0 free, 1 unable to
// curl at all). The limit is held while the contact lasts and released
// EndFrames frames after it ends, the touch messages' hysteresis, so that
// a finger resting on the surface does not make the servo chatter. A
// limit never opens the finger: a finger that closed past it before the
// glove could stop it (the line's latency) moves it to where the finger
// is, so a servo only ever stops further closing.
//
// A touch's beginning makes a pulse whose amplitude is the finger's
// approach speed (the speed at which its touching link closed on the
// object along the contact's normal, between the last frame and this
// one) over Options.Approach, at most 1: the vrchat profile's
// approach_mps notion.
//
// Hand is the per-hand state machine, fed each frame; Due says when a
// line to the glove is due: at most Options.Rate a second, and only when
// the forces changed, a pulse waits, or Options.Refresh passed. Nothing
// allocates once built.
//
// Source: the force value's meaning is OpenGloves': the OpenGloves
// driver's force-feedback line (LucidVR/opengloves-driver,
// server/src/communication/encoding/alpha_encoding_service.cpp,
// "A%dB%dC%dD%dE%d", 0-1000 thumb to little) and the OpenXR extension
// XR_MNDX_force_feedback_curl by the driver's author, which Monado's
// OpenGloves driver writes on that line (1 unable to move, fully
// extended; 0 fully flexible; a value a limit in the closing direction
// only); the LucidGloves firmware (LucidVR/lucidgloves, MIT,
// src/Controller/Haptics.cpp: a servo at value/1000 of 180 degrees with
// FLIP_FORCE_FEEDBACK true, as Config.h ships it).
package feedback
