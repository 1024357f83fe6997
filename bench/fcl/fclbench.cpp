// fclbench: the peer harness of `gloved bench scenes --export DIR`. It reads
// what `gloved export` writes (links/NAME.obj in each link's frame,
// scene.obj in the world, frames.txt with every link's pose per frame,
// contacts.jsonl with gloved's contacts) and times FCL 0.7 (OBBRSS, the
// library most robotics code uses) on the same geometry and frames:
// first contact per link (a boolean), all contacts, and distance for all
// links. It prints one JSON object; it also counts the frames where FCL
// finds a link touching that gloved does not report (a miss), and those
// where gloved reports more (a link wholly inside a solid, which a
// triangle query does not see, is in contact in gloved's semantics).
//
// Build and run: bench/fcl/run.sh DIR...   (needs Debian's libfcl-dev)
#include <fcl/fcl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using Model = fcl::BVHModel<fcl::OBBRSSd>;
namespace fs = std::filesystem;

static std::shared_ptr<Model> readOBJ(const std::string& path) {
  std::ifstream in(path);
  std::vector<fcl::Vector3d> v;
  std::vector<fcl::Triangle> t;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string k;
    s >> k;
    if (k == "v") {
      double x, y, z;
      s >> x >> y >> z;
      v.emplace_back(x, y, z);
    } else if (k == "f") {
      int a, b, c;
      s >> a >> b >> c;
      t.emplace_back(a - 1, b - 1, c - 1);
    }
  }
  auto m = std::make_shared<Model>();
  m->beginModel();
  m->addSubModel(v, t);
  m->endModel();
  return m;
}

static double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * v.size()))];
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fclbench EXPORT_DIR\n");
    return 2;
  }
  std::string dir = argv[1];
  auto t0 = std::chrono::steady_clock::now();
  auto scene = readOBJ(dir + "/scene.obj");
  double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fcl::CollisionObjectd sceneObj(scene, fcl::Transform3d::Identity());
  std::map<std::string, std::shared_ptr<Model>> links;
  for (auto& e : fs::directory_iterator(dir + "/links"))
    links[e.path().stem().string()] = readOBJ(e.path().string());

  // frames.txt: frame link r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz
  std::map<int, std::vector<std::pair<std::string, fcl::Transform3d>>> frames;
  std::ifstream ff(dir + "/frames.txt");
  std::string line;
  while (std::getline(ff, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    int f;
    std::string name;
    double m[12];
    s >> f >> name;
    for (double& x : m) s >> x;
    fcl::Transform3d x = fcl::Transform3d::Identity();
    fcl::Matrix3d r;
    r << m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10];
    x.linear() = r;
    x.translation() = fcl::Vector3d(m[3], m[7], m[11]);
    frames[f].push_back({name, x});
  }
  // contacts.jsonl: gloved's touching links per frame.
  std::vector<std::set<std::string>> gloved;
  std::ifstream cf(dir + "/contacts.jsonl");
  while (std::getline(cf, line)) {
    std::set<std::string> s;
    auto c = line.find("\"contacts\":[");
    auto end = line.find("\"near\":", c);  // contacts hold arrays of their own
    for (size_t p = line.find("\"link\":\"", c); p != std::string::npos && p < end; p = line.find("\"link\":\"", p + 1)) {
      auto q = line.find('"', p + 8);
      s.insert(line.substr(p + 8, q - p - 8));
    }
    gloved.push_back(s);
  }

  std::vector<double> first, all, dist;
  int missed = 0, more = 0;
  for (auto& [f, poses] : frames) {
    std::set<std::string> touching;
    double tf = 0, ta = 0, td = 0;
    for (auto& [name, x] : poses) {
      fcl::CollisionObjectd link(links[name], x);
      auto a = std::chrono::steady_clock::now();
      fcl::CollisionRequestd r1(1, false);
      fcl::CollisionResultd s1;
      fcl::collide(&link, &sceneObj, r1, s1);
      auto b = std::chrono::steady_clock::now();
      fcl::CollisionRequestd r2(1000000, true);
      fcl::CollisionResultd s2;
      fcl::collide(&link, &sceneObj, r2, s2);
      auto c = std::chrono::steady_clock::now();
      fcl::DistanceRequestd r3;
      fcl::DistanceResultd s3;
      fcl::distance(&link, &sceneObj, r3, s3);
      auto d = std::chrono::steady_clock::now();
      tf += std::chrono::duration<double, std::micro>(b - a).count();
      ta += std::chrono::duration<double, std::micro>(c - b).count();
      td += std::chrono::duration<double, std::micro>(d - c).count();
      if (s1.isCollision()) touching.insert(name);
    }
    first.push_back(tf);
    all.push_back(ta);
    dist.push_back(td);
    if (size_t(f) < gloved.size()) {
      bool all = std::includes(gloved[f].begin(), gloved[f].end(), touching.begin(), touching.end());
      if (!all) missed++;
      else if (gloved[f].size() > touching.size()) more++;
    }
  }
  std::printf("{\"dir\":\"%s\",\"scene_tris\":%d,\"build_s\":%.4f,\"frames\":%zu,"
              "\"first_p50_us\":%.1f,\"first_p99_us\":%.1f,\"all_p50_us\":%.1f,\"all_p99_us\":%.1f,"
              "\"distance_p50_us\":%.1f,\"distance_p99_us\":%.1f,\"frames_fcl_touches_more\":%d,\"frames_gloved_touches_more\":%d}\n",
              dir.c_str(), scene->num_tris, build, frames.size(), pct(first, 0.5), pct(first, 0.99), pct(all, 0.5),
              pct(all, 0.99), pct(dist, 0.5), pct(dist, 0.99), missed, more);
  return 0;
}
