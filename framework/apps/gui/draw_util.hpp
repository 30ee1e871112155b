// Small vector-drawing helpers over sf::VertexArray (triangles) and a batched text renderer
// that puts many strings into one vertex array per character size (one draw call each).
#pragma once

#include <SFML/Graphics.hpp>
#include <map>
#include <string>
#include <string_view>

namespace vedette::gui {

// "#rrggbb" or "#rrggbbaa"; `fallback` when empty or malformed.
sf::Color parse_color(std::string_view text, sf::Color fallback);
sf::Color mix(sf::Color a, sf::Color b, float t);  // t=0 -> a, t=1 -> b
sf::Color darker(sf::Color c, float f);            // f in 0..1: how much darker
sf::Color with_alpha(sf::Color c, sf::Uint8 a);

// All append triangles (sf::Triangles) to `va`.
void add_triangle(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, sf::Vector2f c, sf::Color col);
void add_quad(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, sf::Vector2f c, sf::Vector2f d, sf::Color col);
void add_rect(sf::VertexArray& va, sf::FloatRect r, sf::Color col);
void add_rect_outline(sf::VertexArray& va, sf::FloatRect r, float w, sf::Color col);
void add_line(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, float width, sf::Color col);
void add_circle(sf::VertexArray& va, sf::Vector2f c, float radius, sf::Color col, int segments = 12);
void add_ring(sf::VertexArray& va, sf::Vector2f c, float r_in, float r_out, sf::Color col, int segments = 16);
void add_convex(sf::VertexArray& va, const sf::Vector2f* pts, int n, sf::Color col);  // fan
void add_star(sf::VertexArray& va, sf::Vector2f c, float r_out, float r_in, int points, sf::Color col);
// A dashed line: `dash` on, `gap` off.
void add_dashed(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, float width, float dash, float gap,
                sf::Color col);

enum class Align { Left, Center, Right };

class TextBatch {
public:
    explicit TextBatch(const sf::Font& font) : font_(&font) {}
    // `pos`: x per `align`, y is the top of the line. Size in pixels (rounded to an integer).
    void add(std::string_view utf8, sf::Vector2f pos, unsigned size, sf::Color col,
             Align align = Align::Left, bool bold = false);
    // Text with a 1-px halo of `halo` colour around it (for names on the map).
    void add_halo(std::string_view utf8, sf::Vector2f pos, unsigned size, sf::Color col, sf::Color halo,
                  Align align = Align::Center, bool bold = false);
    float width(std::string_view utf8, unsigned size, bool bold = false) const;
    void draw(sf::RenderTarget& target) const;
    void clear() { batches_.clear(); }

private:
    const sf::Font* font_;
    std::map<std::pair<unsigned, bool>, sf::VertexArray> batches_;
};

}  // namespace vedette::gui
