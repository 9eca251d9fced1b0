/// Generated cover pictures: a smooth two-colour diagonal gradient from lavfi's `gradients`.
enum CoverArt {
    static let size = 500

    /// A lavfi source producing one frame of the cover. Coordinates and seed are fixed so the
    /// same album always gets the same picture.
    static func lavfiSource(colors: (String, String)) -> String {
        "gradients=s=\(size)x\(size):c0=\(colors.0):c1=\(colors.1):x0=0:y0=0:x1=\(size):y1=\(size)"
            + ":nb_colors=2:seed=1:d=1"
    }

    /// Arguments that add the cover as a second input and embed it as a PNG attached picture.
    static func embeddingArguments(colors: (String, String)) -> (input: [String], output: [String]) {
        (
            ["-f", "lavfi", "-i", lavfiSource(colors: colors)],
            ["-map", "1:v", "-frames:v", "1", "-c:v", "png", "-disposition:v", "attached_pic"]
        )
    }

    /// Arguments that write the cover as a standalone PNG file.
    static func fileArguments(colors: (String, String), output: String) -> [String] {
        ["-f", "lavfi", "-i", lavfiSource(colors: colors), "-frames:v", "1", output]
    }
}
