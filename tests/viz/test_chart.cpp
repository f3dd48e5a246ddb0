// The chart and text primitives: tick choice, number formats, UTF-8 and the FreeType rasteriser.
#include "cbi/viz/chart.hpp"

#include <gtest/gtest.h>

namespace cbi::viz {
namespace {

TEST(Chart, NiceTicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 255, 6), (std::vector<double>{0, 50, 100, 150, 200, 250}));
  EXPECT_EQ(nice_ticks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  for (int n : {2, 5, 10, 40})
    EXPECT_LE(static_cast<int>(nice_ticks(3, 16777215, n).size()), n + 1);
}

TEST(Chart, NumberFormats) {
  EXPECT_EQ(group_digits(4480), "4,480");
  EXPECT_EQ(group_digits(-1234567), "-1,234,567");
  EXPECT_EQ(group_digits(12), "12");
  EXPECT_EQ(short_number(250), "250");
  EXPECT_EQ(short_number(12544), "12,544"); // grouped below 100,000, as tick labels are
  EXPECT_EQ(short_number(125440), "125k");
  EXPECT_EQ(short_number(4194304), "4.19M");
  EXPECT_EQ(short_number(0.25), "0.25");
  EXPECT_EQ(percent(0.94921875), "94.92%");
}

// One axis's labels are in one style: they were "0, 5,000, 10k, 15k" (a suffix from 10,000 on),
// "1,000" beside "10k" on a log axis, and "99.8" beside "99.85".
TEST(Chart, TheLabelsOfOneAxisShareOneStyle) {
  using V = std::vector<std::string>;
  EXPECT_EQ(tick_labels({0, 5000, 10000, 15000}), (V{"0", "5,000", "10,000", "15,000"}));
  EXPECT_EQ(tick_labels({0, 250000, 500000, 750000}), (V{"0", "250k", "500k", "750k"}));
  EXPECT_EQ(tick_labels({0, 500000, 1000000, 1500000}), (V{"0.0", "0.5M", "1.0M", "1.5M"}));
  EXPECT_EQ(tick_labels({0, 0.25, 0.5, 0.75, 1}), (V{"0.00", "0.25", "0.50", "0.75", "1.00"}));
  EXPECT_EQ(tick_labels({2e9, 4e9}), (V{"2G", "4G"}));
  EXPECT_EQ(tick_labels({-10, 0, 10}), (V{"-10", "0", "10"}));
  EXPECT_EQ(decade_labels({0.1, 1, 10, 100, 1000, 1e4, 1e6, 1e9}),
            (V{"0.1", "1", "10", "100", "1k", "10k", "1M", "1G"}));
  EXPECT_EQ(power_of_two_labels({256, 1024, 16384}), (V{"256", "1,024", "16,384"}));
  EXPECT_EQ(power_of_two_labels({1, 1 << 12, 1 << 24}), (V{"2^0", "2^12", "2^24"}));
  // Cells need not tell equal-looking values apart; ticks do.
  EXPECT_EQ(number_labels({12544, 4480, 316}, false), (V{"12,544", "4,480", "316"}));
  EXPECT_EQ(number_labels({123456, 123457}, false), (V{"123k", "123k"}));
  EXPECT_EQ(tick_labels({123456, 123457}), (V{"123.456k", "123.457k"}));
}

TEST(Text, Utf8DecodesAndReplacesMalformedBytes) {
  EXPECT_EQ(decode_utf8("a\xc2\xb7"
                        "b"),
            (std::u32string{U'a', U'\u00b7', U'b'}));
  EXPECT_EQ(decode_utf8("\xe2\x86\x92"), std::u32string{U'\u2192'});
  EXPECT_EQ(decode_utf8("\xff"
                        "a"),
            (std::u32string{0xFFFD, U'a'}));
}

TEST(Text, DrawsInsideTheMeasuredBoxWithoutADisplay) {
  const Font &font = Font::standard();
  const Font::Extent e = font.measure("miss 42", 13);
  EXPECT_GT(e.width, 30);
  EXPECT_GT(e.height(), 10);
  Canvas c(200, 100);
  const Rect box = font.draw(c, 100, 50, "miss 42", 13, kBlack, Align::center, Align::center);
  int inked = 0, outside = 0;
  for (int y = 0; y < c.height(); ++y)
    for (int x = 0; x < c.width(); ++x)
      if (c.pixel(x, y) != kWhite) {
        ++inked;
        outside += !box.contains(x, y);
      }
  EXPECT_GT(inked, 50);
  EXPECT_EQ(outside, 0);
  // Vertical text occupies a tall box.
  const Rect v = font.draw(c, 10, 50, "cache line", 11, kBlack, Align::start, Align::center, true);
  EXPECT_GT(v.h, v.w);
}

TEST(Canvas, PngRoundTripIsExact) {
  Canvas c(7, 5, hex_color("#0072b2"));
  c.set(3, 2, hex_color("#d55e00"));
  const std::string path = ::testing::TempDir() + "/cbi_canvas_roundtrip.png";
  c.save_png(path);
  const Canvas back = load_png(path);
  ASSERT_EQ(back.width(), 7);
  ASSERT_EQ(back.height(), 5);
  EXPECT_EQ(back.pixel(3, 2), hex_color("#d55e00"));
  EXPECT_EQ(back.pixel(0, 0), hex_color("#0072b2"));
  EXPECT_THROW(c.save_png("/nonexistent-dir/x.png"), std::runtime_error);
  // Translucent pixels take the RGBA path.
  c.set(1, 1, {10, 20, 30, 128});
  c.save_png(path);
  EXPECT_EQ(load_png(path).pixel(1, 1), (Color{10, 20, 30, 128}));
  EXPECT_EQ(load_png(path).pixel(3, 2), hex_color("#d55e00"));
}

// The binned diagrams' scale reads "more is darker": relative luminance falls strictly with the
// share, in colour and in grey, and the ends are viridis' published colours.
TEST(Chart, SequentialScaleDarkensWithTheShare) {
  auto luminance = [](Color c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
  for (bool grey : {false, true}) {
    double last = 1e9;
    for (int i = 0; i <= 100; ++i) {
      const double l = luminance(sequential_color(i / 100.0, grey));
      EXPECT_LT(l, last) << i << (grey ? " grey" : "");
      last = l;
    }
    EXPECT_LT(luminance(sequential_color(0.0, grey)), 250.0); // 0% stays distinct from white
  }
  EXPECT_EQ(sequential_color(0), hex_color("#fde725"));
  EXPECT_EQ(sequential_color(1), hex_color("#440154"));
  EXPECT_EQ(sequential_color(2), hex_color("#440154")); // clamped
}

} // namespace
} // namespace cbi::viz
