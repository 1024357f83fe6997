// export.h: reading what `gloved bench scenes --export DIR` writes, for the
// peer harnesses (bench/fcl, bench/coal): links/NAME.obj in each link's
// frame, scene.obj in the world, frames.txt with every link's pose per
// frame, contacts.jsonl with gloved's answers.
#pragma once

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace exported {

struct Mesh {
  std::vector<std::array<double, 3>> v;
  std::vector<std::array<int, 3>> t;
};

// readOBJ reads the vertices and triangles of an OBJ file gloved wrote.
inline Mesh readOBJ(const std::string& path) {
  std::ifstream in(path);
  Mesh m;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string k;
    s >> k;
    if (k == "v") {
      double x, y, z;
      s >> x >> y >> z;
      m.v.push_back({x, y, z});
    } else if (k == "f") {
      int a, b, c;
      s >> a >> b >> c;
      m.t.push_back({a - 1, b - 1, c - 1});
    }
  }
  return m;
}

// Pose is a link's pose in a frame: rotation r (row-major) and translation t.
struct Pose {
  std::string link;
  double r[9];
  double t[3];
};

// readFrames reads frames.txt: frame link r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz.
inline std::map<int, std::vector<Pose>> readFrames(const std::string& dir) {
  std::map<int, std::vector<Pose>> frames;
  std::ifstream ff(dir + "/frames.txt");
  std::string line;
  while (std::getline(ff, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    int f;
    Pose p;
    double m[12];
    s >> f >> p.link;
    for (double& x : m) s >> x;
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) p.r[3 * i + j] = m[4 * i + j];
      p.t[i] = m[4 * i + 3];
    }
    frames[f].push_back(p);
  }
  return frames;
}

// readContacts reads contacts.jsonl: the links gloved reports touching, per frame.
inline std::vector<std::set<std::string>> readContacts(const std::string& dir) {
  std::vector<std::set<std::string>> out;
  std::ifstream cf(dir + "/contacts.jsonl");
  std::string line;
  while (std::getline(cf, line)) {
    std::set<std::string> s;
    auto c = line.find("\"contacts\":[");
    auto end = line.find("\"near\":", c);  // contacts hold arrays of their own
    for (size_t p = line.find("\"link\":\"", c); p != std::string::npos && p < end; p = line.find("\"link\":\"", p + 1)) {
      auto q = line.find('"', p + 8);
      s.insert(line.substr(p + 8, q - p - 8));
    }
    out.push_back(s);
  }
  return out;
}

// pct returns the p-quantile of v.
inline double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * v.size()))];
}

}  // namespace exported
