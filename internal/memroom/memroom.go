// Package memroom says how many more bytes this process may take before
// the system refuses it. That is the least of what its address-space
// limit (RLIMIT_AS, `ulimit -v`), its cgroup's memory limit and the
// machine's MemAvailable leave it. A Go program refused memory does not fail an
// allocation: the runtime ends it ("fatal error: out of memory"), so work
// whose size is known before it starts (a scene's tree) is weighed
// against this first and refused in a line instead.
//
// Sources: getrlimit(2) and proc(5) (/proc/self/status VmSize,
// /proc/meminfo MemAvailable, /proc/self/cgroup); the kernel's cgroup v2
// documentation (memory.max, memory.current); runtime/metrics for the
// heap the Go runtime holds and would reuse before it asks for more.
package memroom

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
)

// Machine is what Room weighs: the limits and what the process uses of
// each. Read fills it from this process and machine; tests make their
// own. A zero limit is none.
type Machine struct {
	AddressLimit uint64 // RLIMIT_AS's soft limit (ulimit -v)
	AddressUsed  uint64 // the process's address space now (VmSize)
	CgroupLimit  uint64 // the process's cgroup's memory.max
	CgroupUsed   uint64 // its memory.current
	Available    uint64 // the machine's MemAvailable
	// HeapFree is heap the Go runtime holds, resident, and does not use;
	// HeapReleased, heap it gave back to the system but keeps mapped.
	// Both are reused before the heap grows: free counts as room against
	// every limit, released against the address-space one (it is mapped,
	// not resident).
	HeapFree, HeapReleased uint64
}

// The limits, as Room names them.
const (
	ByAddressLimit = "ulimit -v"
	ByCgroup       = "the cgroup's memory.max"
	ByAvailable    = "the memory the system has available"
)

// Room returns how many more bytes the process may take, and which limit
// says so; ok is false when no limit is known.
func (m Machine) Room() (bytes uint64, by string, ok bool) {
	take := func(limit, used, reusable uint64, name string) {
		if limit == 0 {
			return
		}
		r := uint64(0)
		if limit > used {
			r = limit - used
		}
		r = sat(r, reusable)
		if !ok || r < bytes {
			bytes, by, ok = r, name, true
		}
	}
	take(m.AddressLimit, m.AddressUsed, sat(m.HeapFree, m.HeapReleased), ByAddressLimit)
	take(m.CgroupLimit, m.CgroupUsed, m.HeapFree, ByCgroup)
	take(m.Available, 0, m.HeapFree, ByAvailable)
	if !ok {
		return 0, "", false
	}
	return bytes, by, true
}

// sat is a+b, at most the largest uint64.
func sat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// Read reads the machine's limits and this process's use of them. What
// cannot be read (no /proc, no cgroup v2, no limit) is left zero: none.
func Read() Machine {
	var m Machine
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != math.MaxUint64 { // RLIM_INFINITY
		m.AddressLimit = rl.Cur
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		m.AddressUsed, _ = kBField(b, "VmSize:")
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.Available, _ = kBField(b, "MemAvailable:")
	}
	m.CgroupLimit, m.CgroupUsed = cgroupMemory()
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		m.HeapFree = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		m.HeapReleased = s[1].Value.Uint64()
	}
	return m
}

// kBField returns the value, in bytes, of a "Name:   123 kB" line of a
// /proc file.
func kBField(b []byte, name string) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) {
			continue
		}
		f := strings.Fields(line[len(name):])
		if len(f) == 0 {
			return 0, false
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil || v > math.MaxUint64/1024 {
			return 0, false
		}
		return v * 1024, true
	}
	return 0, false
}

// cgroupMemory returns the process's cgroup's memory limit and use: v2's
// memory.max and memory.current ("0::/path" in /proc/self/cgroup, under
// /sys/fs/cgroup), else v1's memory.limit_in_bytes and
// memory.usage_in_bytes ("N:memory:/path", under /sys/fs/cgroup/memory;
// in a container, the path is its root). No limit is 0.
func cgroupMemory() (limit, used uint64) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var dirs []string
		var max, cur string
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			dirs, max, cur = []string{filepath.Join("/sys/fs/cgroup", filepath.Clean("/"+p))}, "memory.max", "memory.current"
		} else if _, p, ok := strings.Cut(line, ":memory:"); ok {
			dirs = []string{filepath.Join("/sys/fs/cgroup/memory", filepath.Clean("/"+p)), "/sys/fs/cgroup/memory"}
			max, cur = "memory.limit_in_bytes", "memory.usage_in_bytes"
		}
		for _, d := range dirs {
			if limit = cgroupValue(filepath.Join(d, max)); limit != 0 {
				stat, _ := os.ReadFile(filepath.Join(d, "memory.stat"))
				return limit, inUse(cgroupValue(filepath.Join(d, cur)), stat)
			}
		}
	}
	return 0, 0
}

// inUse is a cgroup's use less the file cache the kernel would reclaim
// before it refused the group memory (memory.stat's inactive_file, v1's
// total_inactive_file), as docker and the kubelet count it: a daemon that
// records for hours fills its group with the cache of its own files.
func inUse(current uint64, stat []byte) uint64 {
	for _, line := range strings.Split(string(stat), "\n") {
		name, v, ok := strings.Cut(line, " ")
		if !ok || name != "inactive_file" && name != "total_inactive_file" {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			continue
		}
		if n >= current {
			return 0
		}
		return current - n
	}
	return current
}

// noCgroupLimit is the least of the values cgroup v1 writes for no limit
// (a page-rounded 2^63-1) and more than any machine's memory.
const noCgroupLimit = 1 << 62

// cgroupValue reads a cgroup file of one number; "max", v1's no-limit
// number, or what cannot be read, is 0: no limit.
func cgroupValue(path string) uint64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v >= noCgroupLimit {
		return 0
	}
	return v
}
