/// The quotes of each category. The first of each is the seed's own; the rest are ours, kept short so most
/// fit a small widget whole.
enum QuoteCollection {
    static let quotes: [String: [String]] = [
        "motivation": [
            "Small steps count.",
            "Start before you feel ready.",
            "Done beats perfect.",
            "Keep the streak alive.",
            "Effort compounds.",
            "Begin where you are.",
        ],
        "focus": [
            "One thing at a time.",
            "Close the other tabs.",
            "Depth over breadth.",
            "Finish, then switch.",
            "Guard your attention.",
            "Single-task this hour.",
        ],
        "mindfulness": [
            "Take a breath before moving on.",
            "Notice, then respond.",
            "Relax your shoulders.",
            "This moment is enough.",
            "Slow is smooth.",
            "Pause. Breathe. Go on.",
        ],
    ]
}
