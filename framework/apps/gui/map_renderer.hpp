// Draws a module's map (core::MapDef) as vector shapes: terrain fills and symbols, hexsides
// (rivers, bridges, lakes, roads), region borders, city markers; names and hex labels as
// batched screen-space text so they stay crisp at every zoom. The static geometry is built once
// in world coordinates and uploaded to GPU vertex buffers; each frame is a handful of draws.
#pragma once

#include <SFML/Graphics.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/defs.hpp"
#include "hex/hex.hpp"

namespace vedette::gui {

// The colour around the map (the table it lies on).
extern const sf::Color kTable;

// Where the map is looked at from: world point at the centre of the map viewport, and scale.
struct Camera {
    sf::Vector2f center;
    float zoom = 1.0f;           // screen pixels per world unit
    sf::FloatRect viewport;      // in window pixels
    sf::Vector2u window_size{1, 1};

    sf::View view() const;
    sf::Vector2f to_screen(sf::Vector2f world) const;
    sf::Vector2f to_world(sf::Vector2f screen) const;
    // Keeps the world point under `screen` fixed while zooming by `factor`.
    void zoom_at(sf::Vector2f screen, float factor, float min_zoom, float max_zoom);
};

// A static batch: a vertex buffer when the driver has them, else a vertex array.
class StaticMesh {
public:
    void set(const sf::VertexArray& va);
    void draw(sf::RenderTarget& t, const sf::RenderStates& st = sf::RenderStates::Default) const;
    size_t vertex_count() const { return count_; }

private:
    sf::VertexArray array_;
    std::unique_ptr<sf::VertexBuffer> buffer_;
    size_t count_ = 0;
};

// Renders a scene (map + counters + highlights) once into an off-screen texture and blits it
// while neither the camera nor the scene changed: a still frame costs one textured quad.
class SceneCache {
public:
    template <class Paint>
    void draw(sf::RenderTarget& target, const Camera& cam, std::uint64_t generation, Paint&& paint) {
        if (!begin(target, cam, generation)) {
            paint(target, cam);
            return;
        }
        if (dirty_) {
            paint(texture_, local_);
            finish();
        }
        blit(target, cam);
    }
    void invalidate() { valid_ = false; }

private:
    bool begin(sf::RenderTarget& target, const Camera& cam, std::uint64_t generation);
    void finish();
    void blit(sf::RenderTarget& target, const Camera& cam);
    bool fast_blit(sf::RenderWindow& window, const Camera& cam);
    sf::RenderTexture texture_;
    Camera cam_, local_;
    std::uint64_t generation_ = 0;
    bool valid_ = false, dirty_ = false, ok_ = true;
};

class MapRenderer {
public:
    static constexpr float kHexSize = 40.0f;  // world units, centre to corner

    MapRenderer(const core::MapDef& map, const sf::Font& font, const sf::Font& bold);

    const hex::Layout& layout() const { return layout_; }
    sf::FloatRect world_bounds() const { return bounds_; }
    sf::Vector2f hex_center(hex::Hex h) const;
    // The hex under a world point, if it is on the map.
    const core::HexDef* hex_at(sf::Vector2f world) const;

    // Map geometry (in the camera's view) plus names/labels in screen space.
    void draw(sf::RenderTarget& target, const Camera& cam) const;
    // The whole map fitted in `rect` (window pixels), with the camera's view outlined.
    void draw_overview(sf::RenderTarget& target, sf::FloatRect rect, const Camera& cam) const;
    // Window-pixel rectangle where draw_overview put the map last (for clicks).
    sf::Vector2f overview_to_world(sf::FloatRect rect, sf::Vector2f screen) const;

    // Highlight overlay helpers (world geometry into `va`).
    void add_hex_fill(sf::VertexArray& va, hex::Hex h, sf::Color c, float inset = 0.0f) const;
    void add_hex_outline(sf::VertexArray& va, hex::Hex h, float width, sf::Color c, float inset = 0.0f) const;

    size_t vertex_count() const;

private:
    void build();
    void add_terrain_symbol(sf::VertexArray& va, const std::string& symbol, sf::Vector2f c, hex::Hex h) const;
    void add_feature_marker(sf::VertexArray& va, const core::HexDef& hd, sf::Vector2f c) const;
    sf::View overview_view(sf::FloatRect rect, sf::Vector2u win) const;

    const core::MapDef& map_;
    const sf::Font& font_;
    const sf::Font& bold_;
    hex::Layout layout_;
    sf::FloatRect bounds_;
    StaticMesh fills_, grid_, overlay_, markers_;
    sf::VertexArray overview_va_;
    struct Name {
        sf::Vector2f world;  // anchor (below the marker)
        std::string text;
        int rank = 0;  // 2 fortress/capital, 1 city, 0 other
    };
    std::vector<Name> names_;
    std::vector<Name> line_names_;  // named rivers/roads, a few anchors along each
    mutable sf::RenderTexture overview_cache_;
    mutable sf::FloatRect overview_rect_;
};

}  // namespace vedette::gui
