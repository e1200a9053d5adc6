// glint-flags: -V --target-env vulkan1.3
#version 450
// The seed's memoization example: eight access sites of two tables in two functions
// share exactly two Private variables (helper() and main() share tableA's).
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float tableA[8] = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
const float tableB[8] = { 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0 };
float helper(int i) {
    return tableA[i & 7] + tableA[(i + 1) & 7];
}
void main() {
    float a0 = tableA[index];
    float a1 = tableA[(index + 1) & 7];
    float b0 = tableB[index];
    float b1 = tableB[(index + 1) & 7];
    float b2 = tableB[(index + 2) & 7];
    float b3 = tableB[(index + 3) & 7];
    float h  = helper(index);
    color = vec4(a0 + a1 + h, b0 + b1 + b2 + b3, 0.0, 1.0);
}
